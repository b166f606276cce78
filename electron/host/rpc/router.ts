import {
  commands,
  type CommandName,
  type ParsedRequestOf,
  type ResponseOf,
} from '../../../shared/protocol/commands';
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
  constructor(
    private readonly handlers: HandlerMap,
    private readonly topics: Record<string, TopicProvider>,
  ) {}

  async invoke(method: string, params: unknown, client: ClientContext): Promise<InvokeResult> {
    if (!Object.hasOwn(commands, method)) {
      return {
        ok: false,
        error: { code: 'unknown_method', message: `unknown method '${method}'` },
      };
    }
    const name = method as CommandName;
    const parsed = commands[name].request.safeParse(params ?? {});
    if (!parsed.success) return { ok: false, error: toRpcError(parsed.error) };
    try {
      const handler = this.handlers[name] as (req: unknown, c: ClientContext) => Promise<unknown>;
      const value = await handler(parsed.data, client);
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
