import { clientFrameSchema, type HostFrame } from '../../../shared/protocol/wire';
import type { Disposable } from '../lifecycle/disposable';
import type { ClientContext, Router, Subscription } from './router';
import { toRpcError } from './host-error';

/**
 * One client's conversation with the router, whatever carries it: frames in, frames out. It owns
 * the client's subscriptions, so a closed socket or window drops every one of them.
 */
export class RpcConnection implements Disposable {
  private readonly subs = new Map<number, Promise<Subscription | null>>();
  private disposed = false;

  constructor(
    private readonly router: Router,
    private readonly client: ClientContext,
    /** `topic` names the subscription an event belongs to (a transport may encode by it). */
    private readonly send: (frame: HostFrame, topic?: string) => void,
  ) {}

  receive(raw: unknown): void {
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success) {
      this.send({ t: 'error', error: toRpcError(parsed.error) });
      return;
    }
    const frame = parsed.data;
    switch (frame.t) {
      case 'invoke':
        void this.router.invoke(frame.method, frame.params, this.client).then((r) => {
          if (this.disposed) return;
          this.send(
            r.ok
              ? { t: 'result', id: frame.id, ok: true, value: r.value }
              : { t: 'result', id: frame.id, ok: false, error: r.error },
          );
        });
        return;
      case 'subscribe': {
        if (this.subs.has(frame.sub)) {
          this.send({
            t: 'sub_error',
            sub: frame.sub,
            error: { code: 'duplicate_sub', message: `subscription ${frame.sub} exists` },
          });
          return;
        }
        const sub = frame.sub;
        const topic = frame.topic;
        const pending = this.router
          .subscribe(
            frame.topic,
            frame.cursor,
            (data) => {
              if (!this.disposed) this.send({ t: 'event', sub, data }, topic);
            },
            this.client,
          )
          .then(
            (s) => {
              if (this.disposed || !this.subs.has(sub)) {
                void s.dispose();
                return null;
              }
              return s;
            },
            (err: unknown) => {
              this.subs.delete(sub);
              if (!this.disposed) this.send({ t: 'sub_error', sub, error: toRpcError(err) });
              return null;
            },
          );
        this.subs.set(sub, pending);
        return;
      }
      case 'unsubscribe': {
        const pending = this.subs.get(frame.sub);
        this.subs.delete(frame.sub);
        void pending?.then((s) => s?.dispose());
        return;
      }
      case 'ack':
        void this.subs.get(frame.sub)?.then((s) => s?.ack?.(frame.n));
        return;
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const pending of this.subs.values()) void pending.then((s) => s?.dispose());
    this.subs.clear();
  }
}
