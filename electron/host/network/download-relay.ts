import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { moduleDir } from '../lsp/resolve-command';
import { findInstallRoot, findLauncher, startTunnelRelay } from '../sandbox/launcher';
import { RELAY_BUFFER_BYTES, RELAY_HANDOFF_BYTES } from './constants';

// The destination-to-client half of a tunnel, the way downloads flow. The proxy moves the first
// bytes itself: the destination's socket reads into one buffer of the tunnel's own (node's
// onread), which is written to the client as it is; a read the client's socket takes whole is
// done at once, otherwise reading pauses until the write is done (the buffer is not read into
// while a write may still send from it). No buffer is allocated per chunk.
//
// Copying every byte in and out of the host still costs a core's worth on a large download, so
// a tunnel that has carried `afterBytes` is handed to the launcher's splice relay
// (tunnel-relay.c): the proxy stops reading the destination, lets its last write to the client
// finish (nothing it read is left unsent, nothing is sent out of order), and starts
// `mewbo-landlock --relay` with the client's socket as fd 3 and the destination's as fd 4. The
// kernel moves the rest. Small tunnels (most HTTPS requests) never pay for the process. The
// upload half stays with the proxy: one owner for each direction of each socket.

/** Where the splice relay is and when a tunnel goes to it. */
export interface RelayHandOff {
  /** The launcher (build/landlock/mewbo-landlock), run with --relay. */
  program: string;
  /** Bytes the proxy moves itself before handing a tunnel's download over. */
  afterBytes: number;
}

/**
 * The hand-off for a proxy: `program` undefined is the launcher this install built (none
 * built: null); null keeps every byte in the proxy.
 */
export function relayHandOff(program: string | null | undefined): RelayHandOff | null {
  const found = program !== undefined ? program : findLauncher(findInstallRoot(moduleDir()));
  return found ? { program: found, afterBytes: RELAY_HANDOFF_BYTES } : null;
}

/** What the tunnel's owner learns about the relay process once it has the sockets. */
export interface HandedOff {
  child: ReturnType<typeof startTunnelRelay>;
  /** Resolves with whether the destination ended cleanly (the client's write side then shut). */
  done: Promise<boolean>;
}

export class DownloadRelay {
  readonly buffer = Buffer.allocUnsafe(RELAY_BUFFER_BYTES);
  /** The destination's socket, once made (its onread is this relay's `read`). */
  from: Socket | null = null;
  private client: Duplex | null = null;
  /** Bytes read before the client was known (a destination that speaks first). */
  private early: Buffer[] = [];
  private moved = 0;
  /** 'proxy' until the hand-off starts; 'kept' when the relay could not start (never again). */
  private mode: 'proxy' | 'handing' | 'kept' = 'proxy';
  private onHandedOff: ((h: HandedOff) => void) | null = null;

  constructor(private readonly handOff: RelayHandOff | null) {}

  /** Starts writing to `client`; `handedOff` hears of the relay process if one takes over. */
  to(client: Duplex, handedOff: (h: HandedOff) => void): void {
    this.client = client;
    this.onHandedOff = handedOff;
    for (const chunk of this.early.splice(0)) client.write(chunk);
  }

  /** onread's callback: false pauses the destination's socket. */
  read(n: number, buf: Uint8Array): boolean {
    const client = this.client;
    if (!client) {
      this.early.push(Buffer.from(buf.subarray(0, n)));
      return true;
    }
    if (client.destroyed) return false;
    this.moved += n;
    const handing =
      this.mode === 'proxy' && !!this.handOff && this.moved >= this.handOff.afterBytes;
    if (handing) this.mode = 'handing';
    let waiting = false;
    client.write(buf.subarray(0, n), () => {
      // Every earlier write is done too: the client's queue is empty, the destination unread.
      if (handing) this.spawnRelay(client as Socket);
      else if (waiting) this.from?.resume();
    });
    if (handing) return false;
    // Written whole at once: the buffer is free again. Else it waits in the client's queue.
    waiting = client.writableLength > 0;
    return !waiting;
  }

  private spawnRelay(client: Socket): void {
    const from = this.from;
    if (!from || client.destroyed || from.destroyed) return;
    const child = startTunnelRelay(this.handOff!.program, client, from);
    // spawn() pauses every socket it passes (node's guard against two readers of one stream).
    // The destination must stay unread here; the client's upload is still the proxy's to read,
    // unless its pipe waits for the destination to drain (the drain resumes it then).
    if (!from.writableNeedDrain) client.resume();
    const done = new Promise<boolean>((resolve) =>
      child.once('exit', (code) => resolve(code === 0)),
    );
    // A launcher that cannot start (removed since the proxy began): the proxy relays on.
    child.once('error', () => {
      this.mode = 'kept';
      from.resume();
    });
    child.once('spawn', () => this.onHandedOff?.({ child, done }));
  }
}
