import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { EgressProxy, type Decide } from '../../../electron/host/network/egress-proxy';
import { findInstallRoot, findLauncher } from '../../../electron/host/sandbox/launcher';
import {
  bodyOf,
  curl,
  openTunnel,
  readAll,
  startHttpOrigin,
  startTcpOrigin,
} from '../../helpers/net-fixtures';

// A tunnel's download handed to the launcher's splice relay (download-relay.ts, tunnel-relay.c):
// real sockets, a real curl and the real launcher. The hand-off happens mid-stream, after
// AFTER bytes, so every test crosses it: a byte lost, repeated or reordered there, an upload cut
// off by it, a half-close it drops, or a relay process left behind shows here. The proxy's
// decisions are a stub (everything goes to 127.0.0.1); policy is session-network.test.ts's.

const launcher = findLauncher(findInstallRoot(process.cwd()));
const AFTER = 64 * 1024;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const toLoopback: Decide = async () => ({ ok: true, address: '127.0.0.1' });

async function proxy(program = launcher!) {
  const p = await EgressProxy.listen({
    decide: toLoopback,
    relay: { program, afterBytes: AFTER },
  });
  cleanups.push(() => p.dispose());
  return p;
}

async function tcpOrigin(onSocket: (s: Socket) => void) {
  const o = await startTcpOrigin(onSocket);
  cleanups.push(() => o.close());
  return o;
}

/** Relay processes of this test process now (`mewbo-landlock --relay`). */
function relayChildren(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return ppid === process.pid && argv.includes('--relay');
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(what: () => boolean): Promise<void> {
  while (!what()) await new Promise((r) => setTimeout(r, 20));
}

/** An origin that writes `total` bytes of `pattern` (repeated) without end unless `total`. */
function pump(s: Socket, chunk: Buffer, total = Infinity): void {
  let written = 0;
  const go = () => {
    while (written < total && !s.destroyed) {
      written += chunk.length;
      if (!s.write(chunk)) return void s.once('drain', go);
    }
    if (!s.destroyed) s.end();
  };
  go();
}

describe.skipIf(!launcher)('the splice relay', () => {
  test('curl downloads through a CONNECT tunnel byte for byte across the hand-off', async () => {
    const p = await proxy();
    const o = await startHttpOrigin();
    cleanups.push(() => o.close());
    const n = 3 * 1024 * 1024 + 17;
    const r = await curl([
      '-x',
      `http://127.0.0.1:${p.port}`,
      '-p',
      `http://127.0.0.1:${o.port}/bytes/${n}`,
    ]);
    expect(r.code).toBe(0);
    expect(createHash('sha256').update(r.stdout).digest('hex')).toBe(bodyOf(n).sha);
    expect(p.relayedTunnels).toBe(1);
  });

  test('the upload goes on through the proxy while the relay moves the download: an echo comes back whole', async () => {
    const p = await proxy();
    const o = await tcpOrigin((s) => s.pipe(s));
    const t = await openTunnel(p.port, `127.0.0.1:${o.port}`);
    const sent = randomBytes(8 * 1024 * 1024);
    const back = readAll(t.socket);
    // In pieces, so much of the upload is sent after the download was handed over.
    for (let i = 0; i < sent.length; i += 256 * 1024) {
      const piece = sent.subarray(i, i + 256 * 1024);
      if (!t.socket.write(piece)) await new Promise((r) => t.socket.once('drain', r));
    }
    t.socket.end();
    expect((await back).equals(sent)).toBe(true);
    expect(p.relayedTunnels).toBe(1);
    await until(() => p.openSockets === 0);
  });

  test('a client that half-closes still gets everything the destination sends after, then the end', async () => {
    const p = await proxy();
    const answer = randomBytes(2 * 1024 * 1024);
    const o = await tcpOrigin((s) => {
      s.resume();
      // The first megabyte before the client's end (the hand-off happens then), the rest after.
      s.write(answer.subarray(0, 1024 * 1024));
      s.once('end', () => s.end(answer.subarray(1024 * 1024)));
    });
    const t = await openTunnel(p.port, `127.0.0.1:${o.port}`);
    const got = readAll(t.socket);
    await until(() => p.relayedTunnels === 1);
    t.socket.end('done sending');
    expect((await got).equals(answer)).toBe(true);
    await until(() => p.openSockets === 0 && relayChildren().length === 0);
  });

  test('a client that goes away mid-download ends the relay and the destination connection', async () => {
    const p = await proxy();
    let originClosed!: () => void;
    const closed = new Promise<void>((r) => (originClosed = r));
    const o = await tcpOrigin((s) => {
      s.once('close', () => originClosed());
      pump(s, Buffer.alloc(64 * 1024, 3));
    });
    const t = await openTunnel(p.port, `127.0.0.1:${o.port}`);
    t.socket.resume();
    await until(() => p.relayedTunnels === 1 && relayChildren().length === 1);
    t.socket.destroy();
    await closed;
    await until(() => relayChildren().length === 0 && p.openSockets === 0);
  });

  test('dispose ends a relayed tunnel: the client sees its end and no relay process is left', async () => {
    const p = await EgressProxy.listen({
      decide: toLoopback,
      relay: { program: launcher!, afterBytes: AFTER },
    });
    const o = await tcpOrigin((s) => pump(s, Buffer.alloc(64 * 1024, 5)));
    const t = await openTunnel(p.port, `127.0.0.1:${o.port}`);
    const ended = readAll(t.socket);
    await until(() => relayChildren().length === 1);
    await p.dispose();
    await ended;
    expect(relayChildren()).toEqual([]);
  });

  test('with no launcher to start, the proxy moves the whole download itself', async () => {
    const p = await proxy('/nonexistent/mewbo-landlock');
    const answer = randomBytes(1024 * 1024);
    const o = await tcpOrigin((s) => s.end(answer));
    const t = await openTunnel(p.port, `127.0.0.1:${o.port}`);
    t.socket.end();
    expect((await readAll(t.socket)).equals(answer)).toBe(true);
    expect(p.relayedTunnels).toBe(0);
  });
});
