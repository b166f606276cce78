import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLoginProof, PROOF_HEADER } from '../../../electron/web/login-proof';
import { readWebSecret } from '../../../electron/web/web-secret';
import { CLI, startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';

// The login proof of `mewbo login` (issue #25 part 7), against real `mewbo serve` processes.
// A process that took the port `mewbo login` looks at (the remembered one, left by a host now on
// another port) must get no proof it can use; a proof made for one host is refused by another
// host of the same $MEWBO_HOME; an old proof is refused by its timestamp.

const run = promisify(execFile);
let home: ReturnType<typeof tempDir>;
let a: HostProcess;
let b: HostProcess;
let secret: Buffer;

/** What a proof buys when POSTed to `port` with the Host `host`: the HTTP status. */
async function spend(port: number, proof: string, host = `127.0.0.1:${port}`): Promise<number> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/login/code',
        headers: { host, [PROOF_HEADER]: proof },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end();
  });
}

/** A listener that records every request's headers and answers 200 {} (an impostor). */
async function impostor(): Promise<{ server: Server; port: number; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"answer":"' + '0'.repeat(64) + '","url":"http://x"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

const login = (args: string[] = []) =>
  run(process.execPath, [CLI, 'login', ...args], {
    env: { ...process.env, MEWBO_HOME: home.dir },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

beforeAll(async () => {
  home = tempDir('mewbo-attack-login-');
  a = await startHost(home.dir, {}, ['--port', '0']);
  b = await startHost(home.dir, {}, ['--port', '0']);
  secret = readWebSecret(join(home.dir, 'configs', 'web-host.key'))!;
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  home.cleanup();
});

describe('a login proof names the host it is for', () => {
  it('a proof for port A is accepted by A and refused by B, whose secret is the same', async () => {
    const proof = makeLoginProof(secret, `127.0.0.1:${a.port}`);
    expect(await spend(b.port, proof)).toBe(403);
    expect(await spend(b.port, proof, `127.0.0.1:${a.port}`)).toBe(403); // B checks its Host
    expect(await spend(a.port, proof)).toBe(200); // control: the same proof was good, for A
    expect(await spend(a.port, proof)).toBe(403); // once
  });

  it('a proof older than the window is refused by its timestamp; a recent one is not', async () => {
    const host = `127.0.0.1:${a.port}`;
    expect(await spend(a.port, makeLoginProof(secret, host, Date.now() - 30_000))).toBe(200);
    expect(await spend(a.port, makeLoginProof(secret, host, Date.now() - 61_000))).toBe(403);
  });
});

describe('mewbo login sends its proof only to a host that proves itself', () => {
  it('control: a proof for the real host, caught by an impostor, buys a login when relayed', async () => {
    const fake = await impostor();
    try {
      // What a client that named the host it meant (A) but dialled the impostor would hand over.
      await fetch(`http://127.0.0.1:${fake.port}/login/code`, {
        method: 'POST',
        headers: { [PROOF_HEADER]: makeLoginProof(secret, `127.0.0.1:${a.port}`) },
      });
      const caught = fake.seen[0]![PROOF_HEADER] as string;
      expect(await spend(a.port, caught)).toBe(200);
    } finally {
      fake.server.close();
    }
  });

  it('with the remembered port taken by an impostor, nothing is sent and it says so', async () => {
    const fake = await impostor();
    const state = join(home.dir, 'state', 'web-host.json');
    mkdirSync(join(home.dir, 'state'), { recursive: true });
    writeFileSync(state, JSON.stringify({ port: fake.port }));
    try {
      const r = await login();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/is not this \$MEWBO_HOME's web host.*nothing was sent/);
      expect(fake.seen.length).toBe(1);
      expect(fake.seen.some((h) => h[PROOF_HEADER] !== undefined)).toBe(false);
      // A proof for the impostor's port, had it been sent, is worth nothing at the real host.
      const forFake = makeLoginProof(secret, `127.0.0.1:${fake.port}`);
      expect(await spend(a.port, forFake)).toBe(403);
      expect(await spend(a.port, forFake, `127.0.0.1:${fake.port}`)).toBe(403);
    } finally {
      rmSync(state);
      fake.server.close();
    }
  });

  it('serve --port N remembers N, and mewbo login finds the host there', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const c = await startHost(home.dir, {}, ['--port', `${port}`]);
    try {
      const state = JSON.parse(readFileSync(join(home.dir, 'state', 'web-host.json'), 'utf8'));
      expect(state.port).toBe(port);
      const r = await login();
      expect(r.stdout.trim()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/login\\?code=`));
    } finally {
      await c.stop();
    }
  });
});
