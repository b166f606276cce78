import type { CommandName, RequestOf, ResponseOf } from '../../../shared/protocol/commands';
import type { Topic } from '../../../shared/protocol/topics';
import type { RpcError } from '../../../shared/protocol/wire';

export interface TopicSubscription {
  unsubscribe(): void;
  /** Flow control for streams that need it (shell output): `n` units consumed. */
  ack(n: number): void;
}

/** The renderer's only way to the host. Two implementations: Electron IPC and WebSocket. */
export interface Transport {
  invoke(method: string, params: unknown): Promise<unknown>;
  subscribe(
    topic: Topic,
    cursor: number | undefined,
    onData: (data: unknown) => void,
    onError?: (e: RpcError) => void,
  ): TopicSubscription;
  /** Fires with true/false as the connection comes and goes (the WebSocket reconnects). */
  onStatus(listener: (connected: boolean) => void): () => void;
}

export class RpcFailure extends Error {
  constructor(readonly error: RpcError) {
    super(error.message);
    this.name = 'RpcFailure';
  }
}

/** A typed client over any transport: a typo in a command name is a compile error. */
export class Client {
  constructor(readonly transport: Transport) {}

  invoke<K extends CommandName>(method: K, params: RequestOf<K>): Promise<ResponseOf<K>> {
    return this.transport.invoke(method, params) as Promise<ResponseOf<K>>;
  }

  subscribe(
    topic: Topic,
    cursor: number | undefined,
    onData: (data: unknown) => void,
    onError?: (e: RpcError) => void,
  ): TopicSubscription {
    return this.transport.subscribe(topic, cursor, onData, onError);
  }
}
