import { useCallback, useEffect, useState } from 'react';
import { useClient } from '../client-context';
import type { CommandName, RequestOf, ResponseOf } from '../../../shared/protocol/commands';
import { userError } from './user-error';

export interface HostQuery<T> {
  data: T | null;
  error: string | null;
  reload(): void;
  /** What the last `act` failed with, in words; null while it has not failed. */
  actionError: string | null;
  /** A change to what the query shows (commands sent by `change`), then the query loaded again. */
  act(change: () => Promise<unknown>): Promise<void>;
}

/** Global topics whose events mean "ask again". */
type RefreshTopic = 'settings' | 'projects' | 'devices' | 'trust' | 'mcp';

/**
 * One command's answer for a screen, typed from the command map (a wrong method or parameter is a
 * compile error): loads on mount, reloads on demand or when `topic` fires.
 */
export function useHostQuery<K extends CommandName>(
  method: K,
  params: RequestOf<K>,
  topic?: RefreshTopic,
): HostQuery<ResponseOf<K>> {
  const client = useClient();
  const [data, setData] = useState<ResponseOf<K> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(params);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const [actionError, setActionError] = useState<string | null>(null);
  const act = useCallback(
    async (change: () => Promise<unknown>) => {
      setActionError(null);
      try {
        await change();
        reload();
      } catch (err) {
        setActionError(userError(err));
      }
    },
    [reload],
  );

  useEffect(() => {
    let live = true;
    client.invoke(method, JSON.parse(key) as RequestOf<K>).then(
      (v) => {
        if (!live) return;
        setData(v);
        setError(null);
      },
      (err: unknown) => {
        if (live) setError(userError(err));
      },
    );
    return () => {
      live = false;
    };
  }, [client, method, key, tick]);

  useEffect(() => {
    if (!topic) return;
    const sub = client.subscribe(topic, undefined, () => reload());
    return () => sub.unsubscribe();
  }, [client, topic, reload]);

  return { data, error, reload, actionError, act };
}
