import type { z } from 'zod';
import {
  commands,
  type CommandName,
  type ParsedRequestOf,
  type ResponseOf,
} from '../../../shared/protocol/commands';
import type { CommandSpec } from '../../../shared/protocol/command';
import { TOPIC_PATTERN } from '../../../shared/protocol/topics';
import type { RpcError } from '../../../shared/protocol/wire';
import type { Disposable } from '../lifecycle/disposable';
import { HostError, toRpcError } from './host-error';

export interface ClientContext {
  /** Stable per connection (a WebSocket, an Electron webContents). */
  clientId: string;
  transport: 'ws' | 'ipc' | 'local';
}

export type Handler<K extends CommandName> = (
  req: ParsedRequestOf<K>,
  client: ClientContext,
) => Promise<ResponseOf<K>>;
export type HandlerMap = { [K in CommandName]: Handler<K> };

/**
 * Commands of another conversation than the clients' (the remote part's, electron/host/remote/):
 * the same frames and router, another map of names to schemas.
 */
export type CommandMap = Record<string, CommandSpec>;
export type HandlerMapOf<C extends CommandMap> = {
  [K in keyof C]: (
    req: z.output<C[K]['request']>,
    client: ClientContext,
  ) => Promise<z.output<C[K]['response']>>;
};

/** A live subscription: `ack` is flow control for streams that need it (shell output). */
export interface Subscription extends Disposable {
  ack?(n: number): void;
}

export type TopicProvider = (
  rest: string,
  cursor: number | undefined,
  sink: (data: unknown) => void,
  client: ClientContext,
) => Promise<Subscription>;

export type InvokeResult = { ok: true; value: unknown } | { ok: false; error: RpcError };

/**
 * The one entry point both transports serve: every request is zod-parsed before host code sees
 * it, and a failure is an error naming the field.
 */
export class Router {
  private readonly handlers: Record<string, (req: unknown, c: ClientContext) => Promise<unknown>>;

  constructor(
    handlers: HandlerMap,
    private readonly topics: Record<string, TopicProvider>,
    /** The commands served: the clients' unless made by forCommands. */
    private readonly spec: CommandMap = commands,
  ) {
    this.handlers = handlers as unknown as Router['handlers'];
  }

  /** A router of another command map than the clients' (the remote part's). */
  static forCommands<C extends CommandMap>(
    spec: C,
    handlers: HandlerMapOf<C>,
    topics: Record<string, TopicProvider>,
  ): Router {
    return new Router(handlers as unknown as HandlerMap, topics, spec);
  }

  async invoke(method: string, params: unknown, client: ClientContext): Promise<InvokeResult> {
    if (!Object.hasOwn(this.spec, method)) {
      return {
        ok: false,
        error: { code: 'unknown_method', message: `unknown method '${method}'` },
      };
    }
    const parsed = this.spec[method]!.request.safeParse(params ?? {});
    if (!parsed.success) return { ok: false, error: toRpcError(parsed.error) };
    try {
      const value = await this.handlers[method]!(parsed.data, client);
      return { ok: true, value };
    } catch (err) {
      const error = toRpcError(err);
      if (error.code === 'internal') console.error(`[rpc] ${method} failed`, err);
      return { ok: false, error };
    }
  }

  async subscribe(
    topic: string,
    cursor: number | undefined,
    sink: (data: unknown) => void,
    client: ClientContext,
  ): Promise<Subscription> {
    if (!TOPIC_PATTERN.test(topic))
      throw new HostError('unknown_topic', `unknown topic '${topic}'`);
    const colon = topic.indexOf(':');
    const head = colon === -1 ? topic : topic.slice(0, colon);
    const provider = this.topics[head];
    if (!provider) throw new HostError('unknown_topic', `unknown topic '${topic}'`);
    return provider(colon === -1 ? '' : topic.slice(colon + 1), cursor, sink, client);
  }
}
