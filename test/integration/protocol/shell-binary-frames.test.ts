import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Host } from '../../../electron/host/host';
import { WebServer } from '../../../electron/web/web-server';
import type { Client } from '../../../renderer/src/transport/transport';
import type { WsTransport } from '../../../renderer/src/transport/ws-transport';
import { BINARY_SHELL_OUTPUT_PROTOCOL } from '../../../shared/protocol/shell-binary';
import { exchangeCode } from '../../helpers/web-login';
import { connectWs, receiveConsole, type Received } from '../../helpers/ws-console';
import { tempDir } from '../../helpers/temp';

// Binary shell_output (electron/web/PROTOCOL.md) against the default JSON frames, through the real
// web server and real WebSockets, with the renderer's own transport on both ends: a client that
// opted in and one that did not subscribe to the same shell and must receive the same bytes, with
// the same cursors and the same characters to ack.

let home: ReturnType<typeof tempDir>;
let host: Host;
let server: WebServer;
let cookie: string;
let sessionId: string;
const clients: { transport: WsTransport }[] = [];

beforeAll(async () => {
  home = tempDir('mewbo-binary-frames-');
  writeFileSync(join(home.dir, 'index.html'), '<div id="root"></div>');
  host = await Host.create({ env: { ...process.env, MEWBO_HOME: home.dir } });
  server = new WebServer({ router: host.router, staticDir: home.dir, secret: randomBytes(32) });
  await server.listen();
  cookie = await exchangeCode(server.newLoginUrl().url);
  const r = await host.router.invoke('sessions.create', {}, { clientId: 't', transport: 'local' });
  if (!r.ok) throw new Error(r.error.message);
  sessionId = (r.value as { session: { id: string } }).session.id;
});

afterAll(async () => {
  for (const c of clients) c.transport.close();
  await server?.dispose();
  await host?.dispose();
  home?.cleanup();
});

async function connect(binary: boolean): Promise<{ client: Client; transport: WsTransport }> {
  const c = await connectWs(`ws://127.0.0.1:${server.port}/ws`, cookie, binary);
  clients.push({ transport: c.transport });
  return c;
}

function receive(client: Client, shellId: string): Received {
  return receiveConsole(client, `shell:${sessionId}:${shellId}`);
}

/** bash's printf with every byte as \xHH: arbitrary bytes, nothing the shell interprets. */
function printfChunks(chunks: Uint8Array[]): string {
  return chunks
    .map((c) => `printf '${[...c].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}'`)
    .join('; sleep 0.01; ');
}

/**
 * Starts a shell (no terminal, so the bytes are not rewritten by a line discipline). Live: it
 * waits for a line of input before it prints, so both clients are subscribed before any output.
 * Replay: it prints, then waits, and both subscribe to what the host retained (then the frames
 * are cut at the host's frame size, whatever the pipe's reads were).
 */
async function runBoth(
  command: string,
  mode: 'live' | 'replay' = 'live',
): Promise<{ json: Received; binary: Received }> {
  const json = await connect(false);
  const binary = await connect(true);
  const manager = host.shells.forSession(sessionId);
  try {
    const started = await manager.start({
      command: mode === 'live' ? `read -r go; ${command}` : `${command}; read -r end`,
      cwd: home.dir,
      root: home.dir,
      config: host.config,
      tty: false,
    });
    if ('kind' in started) throw new Error(started.message);
    if (mode === 'replay')
      await manager.read(started.id, { waitMs: 30_000, filter: /DONE/, filterSource: 'DONE' });
    const a = receive(json.client, started.id);
    const b = receive(binary.client, started.id);
    await Promise.all([a.ready, b.ready]);
    manager.input(started.id, mode === 'live' ? 'go\n' : 'end\n');
    await Promise.all([a.done, b.done]);
    return { json: a, binary: b };
  } finally {
    json.transport.close();
    binary.transport.close();
  }
}

function expectSameDelivery(json: Received, binary: Received): void {
  expect(binary.frames.every((f) => f.binary)).toBe(true);
  expect(json.frames.every((f) => !f.binary)).toBe(true);
  expect(binary.bytes.equals(json.bytes)).toBe(true);
  const total = (r: Received) => r.frames.reduce((n, f) => n + f.characters, 0);
  expect(total(binary)).toBe(total(json));
  // Cursors are contiguous in both: each frame starts where the last ended.
  for (const r of [json, binary])
    for (let i = 1; i < r.frames.length; i++)
      expect(r.frames[i]!.cursor).toBe(r.frames[i - 1]!.cursor + r.frames[i - 1]!.characters);
}

describe('binary shell_output frames', () => {
  it('deliver the same bytes as JSON frames for arbitrary bytes, invalid UTF-8 split across writes included', async () => {
    // Bytes biased towards UTF-8's edges: lead bytes, continuations, 4-byte sequences, lone halves.
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80, 0xff),
    );
    const chunk = fc.uint8Array({ minLength: 1, maxLength: 40 }).chain((base) =>
      fc.array(byte, { minLength: 0, maxLength: 8 }).map((edge) => {
        const out = new Uint8Array(base.length + edge.length);
        out.set(base);
        out.set(edge, base.length);
        return out;
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(chunk, { minLength: 1, maxLength: 5 }), async (chunks) => {
        const { json, binary } = await runBoth(printfChunks(chunks));
        expectSameDelivery(json, binary);
        // And both are what the program wrote, decoded as UTF-8 (invalid bytes as U+FFFD).
        const written = Buffer.concat(chunks.map((c) => Buffer.from(c)));
        expect(json.bytes.equals(Buffer.from(written.toString('utf8'), 'utf8'))).toBe(true);
      }),
      { numRuns: 15 },
    );
  }, 240_000);

  it('a frame boundary never splits a surrogate pair (4-byte characters across the 64,000-character frame)', async () => {
    // 63,999 ASCII characters, then emoji: the host's 64,000-character frame would end on half a
    // pair, which UTF-8 cannot carry.
    const { json, binary } = await runBoth(
      `head -c 63999 /dev/zero | tr '\\0' a; for i in 1 2 3 4 5 6 7 8; do printf '\\xf0\\x9f\\x98\\x80'; done; echo DONE`,
      'replay',
    );
    expectSameDelivery(json, binary);
    const text = binary.bytes.toString('utf8');
    expect(text).toBe('a'.repeat(63_999) + '\u{1F600}'.repeat(8) + 'DONE\n');
    expect(binary.frames.length).toBeGreaterThan(1);
  }, 60_000);

  it('negotiation: the host picks binary only when offered (in any position), nothing otherwise', async () => {
    const { default: WebSocket } = await import('ws');
    const open = async (protocols: string[]) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, protocols, {
        headers: { cookie },
      });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      ws.close();
      return ws.protocol;
    };
    expect(await open([])).toBe('');
    // `ws` would pick the first offered one by default.
    expect(await open(['something.else', BINARY_SHELL_OUTPUT_PROTOCOL])).toBe(
      BINARY_SHELL_OUTPUT_PROTOCOL,
    );
  });
});
