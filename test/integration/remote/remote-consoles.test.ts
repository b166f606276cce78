import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientContext, Subscription } from '../../../electron/host/rpc/router';
import type { ShellStreamFrame } from '../../../shared/protocol/shell-stream';
import type { RemoteLinkFrame } from '../../../shared/protocol/remote-link';
import { ofType, type Harness } from '../agent/harness';
import { remoteSessionIn, useRemoteHost } from './remote-session';
import { randomBytes } from 'node:crypto';
import { WebServer } from '../../../electron/web/web-server';
import type { WsTransport } from '../../../renderer/src/transport/ws-transport';
import { exchangeCode } from '../../helpers/web-login';
import { connectWs, receiveConsole } from '../../helpers/ws-console';
import { tempDir } from '../../helpers/temp';

// A session on a project on an SSH host (a real sshd on 127.0.0.1), driven through the protocol
// as the desktop UI drives it: its background shells run on the host, their consoles are the
// same `shell:` topic, and when the SSH connection is killed the remote part keeps them running,
// the app reconnects, and each console resumes from its cursor.

const CLIENT: ClientContext = { clientId: 'test', transport: 'local' };

const host = useRemoteHost();
let h: Harness | undefined;

async function until(cond: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A session whose project is `dir` on the test's SSH host, in auto mode (nobody approves). */
async function remoteSession(dir: string): Promise<string> {
  h = await host.harness();
  return remoteSessionIn(h, host.sshd, dir);
}

/** Runs one scripted turn that starts `command` in the background; returns its shell id. */
async function startBackground(id: string, command: string): Promise<string> {
  h!.script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command, run_in_background: true } }] },
    { text: 'started' },
  );
  const events = await h!.waitRunEnd(id, await h!.send(id, 'start it'), 60_000);
  const result = ofType(events, 'tool_result')[0]!;
  expect(result.payload).toMatchObject({ kind: 'shell', status: 'running' });
  return String(result.payload.shell_id);
}

/** A console on the shell: every frame, acked as a console acks what it drew. */
async function console_(id: string, shellId: string, cursor?: number) {
  const frames: ShellStreamFrame[] = [];
  // The replay arrives before subscribe() returns: acks wait for the subscription.
  let unacked = 0;
  const held: { sub?: Subscription } = {};
  const ack = () => {
    if (!held.sub) return;
    if (unacked) held.sub.ack?.(unacked);
    unacked = 0;
  };
  const sub = (held.sub = await h!.host.router.subscribe(
    `shell:${id}:${shellId}`,
    cursor,
    (data) => {
      const frame = data as ShellStreamFrame;
      frames.push(frame);
      if (frame.type === 'shell_output') unacked += frame.data.length;
      ack();
    },
    CLIENT,
  ));
  ack();
  const outputs = () => frames.filter((f) => f.type === 'shell_output');
  return {
    frames,
    sub,
    text: () =>
      outputs()
        .map((f) => f.data)
        .join(''),
    outputs,
    ended: () => frames.some((f) => f.type === 'shell_state' && f.shell.status !== 'running'),
  };
}

async function linkStates(): Promise<{ states: RemoteLinkFrame[]; sub: Subscription }> {
  const states: RemoteLinkFrame[] = [];
  const sub = await h!.host.router.subscribe(
    'remote',
    undefined,
    (f) => states.push(f as RemoteLinkFrame),
    CLIENT,
  );
  return { states, sub };
}

/** Kills the desktop's master SSH connection to the host: every channel on it drops. */
function killConnection(): void {
  const masters = host.sshd.clientPids('master');
  expect(masters.length).toBeGreaterThan(0);
  for (const pid of masters) process.kill(pid, 'SIGKILL');
}

describe('consoles of background shells on an SSH host', () => {
  it('stream over the protocol, and resume from their cursor when the connection is killed mid-stream, nothing duplicated or lost', async () => {
    const dir = join(host.sshd.remoteHome, 'consoles');
    const id = await remoteSession(dir);
    const shellId = await startBackground(
      id,
      'for i in $(seq 1 300); do echo "line $i"; sleep 0.01; done; while [ ! -f stop ]; do sleep 0.05; done',
    );
    const listed = await h!.invoke('shells.list', { session_id: id });
    expect(listed.shells).toContainEqual(
      expect.objectContaining({ shell_id: shellId, status: 'running' }),
    );
    const links = await linkStates();
    expect(links.states).toContainEqual(
      expect.objectContaining({ session_id: id, state: 'connected' }),
    );
    const c = await console_(id, shellId);
    await until(() => c.text().includes('line 20\n'), 'the first lines');
    killConnection();
    await until(
      () => links.states.some((s) => s.session_id === id && s.state === 'reconnecting'),
      'the link to say reconnecting',
    );
    await until(() => links.states.at(-1)?.state === 'connected', 'the link to come back');
    await until(() => c.text().includes('line 300\n'), 'the last line, after the reconnect');
    writeFileSync(join(dir, 'stop'), '');
    await until(c.ended, 'the final state');
    // Every line once, in order: the resumed stream started where the console was.
    const expected = Array.from({ length: 300 }, (_, i) => `line ${i + 1}\n`).join('');
    expect(c.text().replace(/\r/g, '')).toBe(expected);
    let next = 0;
    for (const f of c.outputs()) {
      expect(f.cursor).toBe(next);
      expect(f.missed_characters).toBeUndefined();
      next = f.cursor + f.data.length;
    }
    // The shell's exit happened on the remote after its call: it reaches the session's log.
    await h!.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'shell_exited' && e.shell_id === shellId),
      'shell_exited in the log',
      60_000,
    );
    await c.sub.dispose();
    await links.sub.dispose();
  }, 180_000);

  it('reach a binary WebSocket client as the UTF-8 the host sent and a JSON client as the same text, cursors contiguous', async () => {
    const dir = join(host.sshd.remoteHome, 'binary-consoles');
    const id = await remoteSession(dir);
    const line = (i: number) => `ligne ${i}: héllo wörld ✓ 𝄞\n`;
    const shellId = await startBackground(
      id,
      `read -r go; for i in $(seq 1 3000); do printf 'ligne %d: héllo wörld ✓ 𝄞\\n' $i; done`,
    );
    const site = tempDir('mewbo-remote-ws-');
    writeFileSync(join(site.dir, 'index.html'), '<div id="root"></div>');
    const web = new WebServer({
      router: h!.host.router,
      staticDir: site.dir,
      secret: randomBytes(32),
    });
    await web.listen();
    const cookie = await exchangeCode(web.newLoginUrl().url);
    const transports: WsTransport[] = [];
    const receive = async (binary: boolean) => {
      const { client, transport } = await connectWs(
        `ws://127.0.0.1:${web.port}/ws`,
        cookie,
        binary,
      );
      transports.push(transport);
      return receiveConsole(client, `shell:${id}:${shellId}`);
    };
    try {
      const json = await receive(false);
      const binary = await receive(true);
      await Promise.all([json.ready, binary.ready]);
      await h!.invoke('shells.input', { session_id: id, shell_id: shellId, data: 'go\n' });
      await Promise.all([json.done, binary.done]);
      const expected = Array.from({ length: 3000 }, (_, i) => line(i + 1)).join('');
      for (const r of [json, binary]) {
        expect(r.bytes.toString('utf8')).toBe(expected);
        let next = 0;
        for (const f of r.frames) {
          expect(f.cursor).toBe(next);
          next = f.cursor + f.characters;
        }
        expect(next).toBe(expected.length);
      }
      expect(binary.frames.every((f) => f.binary)).toBe(true);
      expect(json.frames.every((f) => !f.binary)).toBe(true);
    } finally {
      for (const t of transports) t.close();
      await web.dispose();
      site.cleanup();
    }
  }, 180_000);

  it('say how many characters were missed when the remote ring buffer wrapped while the link was down', async () => {
    // The remote part's own config: a small ring, so 5,000 characters wrap it.
    const remoteConfig = join(host.sshd.remoteHome, '.mewbo-remote', 'home', 'configs');
    mkdirSync(remoteConfig, { recursive: true });
    writeFileSync(
      join(remoteConfig, 'app.json'),
      JSON.stringify({ shells: { buffer_chars: 1024 } }),
    );
    const dir = join(host.sshd.remoteHome, 'wrapped');
    const id = await remoteSession(dir);
    try {
      const shellId = await startBackground(
        id,
        'echo ready; while [ ! -f go ]; do sleep 0.05; done; head -c 5000 /dev/zero | tr "\\0" x; echo; touch printed; while [ ! -f stop ]; do sleep 0.05; done',
      );
      const c = await console_(id, shellId);
      await until(() => c.text().includes('ready'), 'ready');
      const seen = c.text().length;
      // The link stays down (the key is away) until the shell has printed past the ring.
      const identity = join(host.sshd.dir, 'id_ed25519');
      renameSync(identity, `${identity}.away`);
      try {
        killConnection();
        writeFileSync(join(dir, 'go'), '');
        await until(() => existsSync(join(dir, 'printed')), 'the output while disconnected');
      } finally {
        renameSync(`${identity}.away`, identity);
      }
      await until(() => c.text().includes('\n', seen), 'output after the reconnect');
      writeFileSync(join(dir, 'stop'), '');
      await until(c.ended, 'the final state');
      const resumed = c.outputs().find((f) => f.cursor >= seen)!;
      // 'ready\n' (6) + 5,000 x + '\n': the ring holds the last 1,024; the rest was missed.
      const total = seen + 5001;
      expect(resumed.missed_characters).toBe(total - 1024 - seen);
      expect(resumed.cursor).toBe(total - 1024);
      expect(c.text().slice(seen)).toBe(`${'x'.repeat(1023)}\n`);
      await c.sub.dispose();
    } finally {
      writeFileSync(join(remoteConfig, 'app.json'), '{}');
    }
  }, 180_000);

  it('end a tool call in flight when the connection is killed with a clear error, and never run it twice', async () => {
    const dir = join(host.sshd.remoteHome, 'inflight');
    const id = await remoteSession(dir);
    h!.script.push(
      {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: { command: 'echo ran >> side.txt; sleep 3; echo finished > done.txt' },
          },
        ],
      },
      { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'cat side.txt' } }] },
      { text: 'done' },
    );
    const from = await h!.send(id, 'go');
    await until(() => existsSync(join(dir, 'side.txt')), 'the command to start on the host');
    killConnection();
    const events = await h!.waitRunEnd(id, from, 90_000);
    const [first, second] = ofType(events, 'tool_result');
    expect(first!.payload).toMatchObject({ kind: 'error', code: 'remote_disconnected' });
    expect(String(first!.payload.message)).toMatch(
      /connection to .* ended.*may or may not have run there: it is not run again/,
    );
    // The next call went over a new connection.
    expect(second!.payload).toMatchObject({ kind: 'shell', stdout: 'ran\n', exit_code: 0 });
    // The command went on running on the host (its remote part outlived the link) and ran once.
    await until(() => existsSync(join(dir, 'done.txt')), 'the command to finish on the host');
    expect(readFileSync(join(dir, 'side.txt'), 'utf8')).toBe('ran\n');
  }, 180_000);
});
