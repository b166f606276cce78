import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, test } from 'vitest';
import { abi, attackWorld, networkGap, type AttackWorld } from './attack-world';

// Part 1 of issue 25, loopback: a confined process may reach the ports its own session listens
// on and never another local service. The case the other tests leave out: the dev server is
// started after the shell that talks to it (`npm run dev & curl localhost:3000` in one command),
// so its port cannot be in the grant the shell was launched with; the session's proxy must find
// it then. In the same command the shell tries a local service that is not the session's (a
// database, another app's API), started by this test. Shown first from an unconfined shell,
// which reaches both.

let w: AttackWorld | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await w?.dispose();
  w = undefined;
});

/**
 * A local HTTP service that is neither the session's nor the app's (a process of its own, since
 * the app's listeners are refused by another rule): it answers with a secret.
 */
async function localService(): Promise<{ port: number; secret: string }> {
  const secret = `LOCAL-SERVICE-SECRET-${randomBytes(6).toString('hex')}`;
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const s = require('http').createServer((q, r) => r.end(${JSON.stringify(secret)}));
       s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  cleanups.push(() => void child.kill());
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const port = Number((await lines.next()).value);
  return { port, secret };
}

/**
 * One shell command: starts a dev server (after the shell started), waits for its port, then
 * reaches it and the local service through whatever the environment says (the proxy, when
 * confined) and the local service directly.
 */
function script(service: number): string {
  const server = `import socket
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(8)
open('dev.port', 'w').write(str(s.getsockname()[1]))
while True:
  c, _ = s.accept(); c.recv(4096); c.sendall(b'HTTP/1.0 200 OK\\r\\n\\r\\nDEV-SERVER-REPLY'); c.close()`;
  return [
    'rm -f dev.port',
    `python3 -c "${server}" & dev=$!`,
    'for i in $(seq 200); do [ -s dev.port ] && break; sleep 0.05; done',
    'echo "own: $(curl -sS http://localhost:$(cat dev.port)/ 2>&1)"',
    `echo "service: $(curl -sS http://127.0.0.1:${service}/ 2>&1)"`,
    `echo "direct: $( (exec 3<>/dev/tcp/127.0.0.1/${service}; printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3; cat <&3) 2>&1)"`,
    'kill $dev',
  ].join('\n');
}

describe.runIf(abi >= 4 && networkGap === null)(
  "loopback: the session's own later dev server, never another local service",
  () => {
    test('unprotected: an unconfined shell reaches its dev server and the local service, by the proxy route and directly', async () => {
      const service = await localService();
      w = attackWorld({ shell_sandbox: false });
      const out = await w.run(script(service.port), { timeoutMs: 60_000 });
      expect(out).toContain('own: DEV-SERVER-REPLY');
      expect(out).toContain(`service: ${service.secret}`);
      expect(out).toMatch(new RegExp(`direct: [^]*${service.secret}`));
    });

    test('protected: the dev server the shell started afterwards answers through the session proxy; the local service answers neither way, and the refusal says why', async () => {
      const service = await localService();
      w = attackWorld();
      const r = await w.shells.run({
        command: script(service.port),
        cwd: w.root,
        root: w.root,
        config: w.config,
        tty: false,
        timeoutMs: 60_000,
      });
      if ('kind' in r) throw new Error(r.message);
      const out = r.result.text;
      expect(r.info.sandbox).toMatchObject({ mode: 'landlock', network: { mode: 'proxy' } });
      expect(out).toContain('own: DEV-SERVER-REPLY');
      expect(out).not.toContain(service.secret);
      expect(out).toMatch(/direct: .*connect: Permission denied/);
      expect(r.networkRefused).toEqual([
        `connection to 127.0.0.1:${service.port} refused: no process of this session listens on port ${service.port}, and it is not in sandbox.network.local_ports (configs/app.json).`,
      ]);
    });
  },
);
