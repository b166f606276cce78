import type { RpcError } from '../../../shared/protocol/wire';
import type { Topic } from '../../../shared/protocol/topics';
import { RpcFailure, type TopicSubscription, type Transport } from './transport';

/** What electron/preload.ts exposes on `window.mewbo` through contextBridge; nothing more. */
export interface PreloadApi {
  invoke(
    method: string,
    params: unknown,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: RpcError }>;
  subscribe(
    topic: string,
    cursor: number | undefined,
    onData: (data: unknown) => void,
    onError: (e: RpcError) => void,
  ): { unsubscribe(): void; ack(n: number): void };
  /** Where a file or folder dropped on the window is on disk (Electron's webUtils). */
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    mewbo?: PreloadApi;
  }
}

/** The protocol over Electron IPC (the preload bridge). The host is in-process: always connected. */
export class IpcTransport implements Transport {
  constructor(private readonly api: PreloadApi) {}

  async invoke(method: string, params: unknown): Promise<unknown> {
    const r = await this.api.invoke(method, params);
    if (!r.ok) throw new RpcFailure(r.error);
    return r.value;
  }

  subscribe(
    topic: Topic,
    cursor: number | undefined,
    onData: (data: unknown) => void,
    onError?: (e: RpcError) => void,
  ): TopicSubscription {
    return this.api.subscribe(topic, cursor, onData, (e) => onError?.(e));
  }

  onStatus(listener: (connected: boolean) => void): () => void {
    listener(true);
    return () => {};
  }
}
