import { Client } from '../../renderer/src/transport/transport';
import { WsTransport } from '../../renderer/src/transport/ws-transport';
import { isShellOutputBytes } from '../../shared/protocol/shell-binary';
import type { ShellStreamFrame } from '../../shared/protocol/shell-stream';
import { socketWithCookie } from './web-login';

// A console read over the web server's WebSocket by the renderer's own transport, binary frames or
// JSON, for the tests that compare the two: every output frame's bytes, cursor and characters,
// acked as a console acks.

/** The renderer's transport on `wsUrl`, logged in with `cookie`, once it is up. */
export function connectWs(
  wsUrl: string,
  cookie: string,
  binary: boolean,
): Promise<{ client: Client; transport: WsTransport }> {
  const transport = new WsTransport(wsUrl, socketWithCookie(cookie), {
    binaryShellOutput: binary,
  });
  return new Promise((resolve) => {
    const off = transport.onStatus((up) => {
      if (!up) return;
      queueMicrotask(() => off());
      resolve({ client: new Client(transport), transport });
    });
  });
}

export interface Received {
  bytes: Buffer;
  /** Each output frame's cursor and characters, in order. */
  frames: { cursor: number; characters: number; binary: boolean }[];
  /** The subscription's first state frame arrived. */
  ready: Promise<void>;
  /** The final state arrived; `bytes` holds everything. */
  done: Promise<void>;
}

/** Subscribes to `topic` from the start and collects its output as bytes until its final state. */
export function receiveConsole(client: Client, topic: `shell:${string}`): Received {
  const parts: Buffer[] = [];
  const frames: Received['frames'] = [];
  let ready!: () => void;
  let done!: () => void;
  const out: Received = {
    bytes: Buffer.alloc(0),
    frames,
    ready: new Promise((r) => (ready = r)),
    done: new Promise((r) => (done = r)),
  };
  const sub = client.subscribe(topic, 0, (raw) => {
    if (isShellOutputBytes(raw)) {
      parts.push(Buffer.from(raw.bytes));
      frames.push({ cursor: raw.cursor, characters: raw.characters, binary: true });
      sub.ack(raw.characters);
      return;
    }
    const frame = raw as ShellStreamFrame;
    if (frame.type === 'shell_output') {
      parts.push(Buffer.from(frame.data, 'utf8'));
      frames.push({ cursor: frame.cursor, characters: frame.data.length, binary: false });
      sub.ack(frame.data.length);
    } else if (frame.shell.status === 'running') {
      ready();
    } else {
      out.bytes = Buffer.concat(parts);
      sub.unsubscribe();
      ready();
      done();
    }
  });
  return out;
}
