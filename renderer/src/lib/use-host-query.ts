import { useCallback, useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { RpcFailure } from '../transport/transport';

export interface HostQuery<T> {
  data: T | null;
  error: string | null;
  /** The host does not serve this command (a part not composed in this build). */
  unavailable: boolean;
  reload(): void;
}

/** One command's answer for a screen: loads on mount, reloads on demand or when `topic` fires. */
export function useHostQuery<T>(
  method: string,
  params: unknown = {},
  topic?: 'settings' | 'projects' | 'devices' | 'trust',
): HostQuery<T> {
  const client = useClient();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(params);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    let live = true;
    client.transport.invoke(method, JSON.parse(key)).then(
      (v) => {
        if (!live) return;
        setData(v as T);
        setError(null);
      },
      (err: unknown) => {
        if (!live) return;
        if (err instanceof RpcFailure && err.error.code === 'unknown_method') setUnavailable(true);
        else setError(err instanceof Error ? err.message : String(err));
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

  return { data, error, unavailable, reload };
}
