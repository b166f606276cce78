import type { ClientFrame, HostFrame, RpcError } from '../../shared/protocol/wire';

// The renderer's end of the one IPC channel, as the preload runs it: every call and every
// subscription travels as a protocol frame on `mewbo:frame`, and one listener routes what comes
// back by call id or subscription id (not one ipcRenderer listener per subscription). Pure, so
// it is tested under Node; preload.ts wires `send` and `receive` to ipcRenderer.

export const IPC_CHANNEL = 'mewbo:frame';

type InvokeResult = { ok: true; value: unknown } | { ok: false; error: RpcError };

interface Handlers {
  onData(data: unknown): void;
  onError(e: RpcError): void;
}

export class IpcClient {
  private next = 1;
  private readonly calls = new Map<number, (r: InvokeResult) => void>();
  private readonly subs = new Map<number, Handlers>();

  constructor(private readonly send: (frame: ClientFrame) => void) {}

  invoke(method: string, params: unknown): Promise<InvokeResult> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.calls.set(id, resolve);
      this.send({ t: 'invoke', id, method, params });
    });
  }

  subscribe(
    topic: string,
    cursor: number | undefined,
    onData: (data: unknown) => void,
    onError: (e: RpcError) => void,
  ): { unsubscribe(): void; ack(n: number): void } {
    const sub = this.next++;
    this.subs.set(sub, { onData, onError });
    this.send({ t: 'subscribe', sub, topic, ...(cursor === undefined ? {} : { cursor }) });
    return {
      unsubscribe: () => {
        if (this.subs.delete(sub)) this.send({ t: 'unsubscribe', sub });
      },
      ack: (n) => this.send({ t: 'ack', sub, n }),
    };
  }

  /** Routes one frame from the host; unknown ids (a late frame after unsubscribe) are dropped. */
  receive(frame: HostFrame): void {
    switch (frame.t) {
      case 'result': {
        const done = this.calls.get(frame.id);
        this.calls.delete(frame.id);
        done?.(frame.ok ? { ok: true, value: frame.value } : { ok: false, error: frame.error });
        return;
      }
      case 'event':
        this.subs.get(frame.sub)?.onData(frame.data);
        return;
      case 'sub_error': {
        const s = this.subs.get(frame.sub);
        this.subs.delete(frame.sub);
        s?.onError(frame.error);
        return;
      }
      case 'error':
        console.error('host refused a frame', frame.error);
    }
  }
}
