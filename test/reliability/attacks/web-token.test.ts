import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { CLI, startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import { exchangeCode } from '../../helpers/web-login';

// Route 9 of the trust boundary: the web host's login must not be findable by the agent's shell
// (a process list, a world-readable file, /tmp), a login link works once, and a confined shell
// cannot mint one the way `mewbo login` does. Against a real `mewbo serve`.

const run = promisify(execFile);
let home: ReturnType<typeof tempDir>;
let host: HostProcess;
beforeEach(async () => {
  home = tempDir('mewbo-attack-token-');
  host = await startHost(home.dir);
});
afterEach(async () => {
  await host.stop();
  home.cleanup();
});

/** Every process's command line and environment, as a shell reads them from /proc. */
function processListHas(needle: string): boolean {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    for (const file of ['cmdline', 'environ']) {
      try {
        if (readFileSync(`/proc/${pid}/${file}`).includes(needle)) return true;
      } catch {
        // gone, or not ours to read
      }
    }
  }
  return false;
}

/** Files under `dir` that someone other than their owner can read and that hold `needle`. */
function exposedFiles(dir: string, needle: string, depth = 4): string[] {
  const found: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of entries) {
    const path = join(dir, name);
    try {
      const st = statSync(path);
      if (st.isDirectory() && depth > 0) found.push(...exposedFiles(path, needle, depth - 1));
      else if (st.isFile() && st.size < 1 << 20 && (st.mode & 0o044) !== 0)
        if (readFileSync(path).includes(needle)) found.push(path);
    } catch {
      // vanished or unreadable
    }
  }
  return found;
}

function upgrade(cookie?: string, origin?: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(host.wsUrl, {
      headers: cookie ? { cookie } : {},
      ...(origin ? { origin } : {}),
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

describe('the login is not findable by a shell', () => {
  it('a token in a browser command line or a readable file is found; the login cookie is in neither', async () => {
    const value = host.cookie.split('=')[1]!;
    const secretHex = readFileSync(join(home.dir, 'configs', 'web-host.key'), 'utf8').trim();
    // Unprotected: the old design opened the browser on http://.../?token=T, and a file anyone
    // can read holds it. The same scans find both.
    const browser = spawn(process.execPath, [
      '-e',
      'setTimeout(() => {}, 60000)',
      `http://127.0.0.1/?token=${value}`,
    ]);
    const leak = join(tmpdir(), `mewbo-leak-${process.pid}`);
    writeFileSync(leak, value);
    chmodSync(leak, 0o644);
    try {
      expect(processListHas(value)).toBe(true);
      expect(exposedFiles(tmpdir(), value, 0)).toContain(leak);
    } finally {
      browser.kill('SIGKILL');
      (await import('node:fs')).rmSync(leak);
    }
    await new Promise((r) => browser.once('exit', r));

    for (const needle of [value, secretHex]) {
      expect(processListHas(needle)).toBe(false);
      expect(exposedFiles(home.dir, needle)).toEqual([]);
      expect(exposedFiles(tmpdir(), needle, 1)).toEqual([]);
    }
    expect(statSync(join(home.dir, 'configs', 'web-host.key')).mode & 0o777).toBe(0o600);
  });
});

describe('one-time login codes', () => {
  it('a code buys an HttpOnly, SameSite=Strict cookie and a redirect to /, once', async () => {
    const res = await fetch(host.url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const set = res.headers.get('set-cookie')!;
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    const replay = await fetch(host.url, { redirect: 'manual' });
    expect(replay.status).toBe(403);
    expect(replay.headers.get('set-cookie')).toBeNull();
    const guess = await fetch(`${host.origin}/login?code=${'A'.repeat(43)}`, {
      redirect: 'manual',
    });
    expect(guess.status).toBe(403);
  });

  it('the page and its assets are public; the WebSocket needs the cookie and the app origin', async () => {
    const page = await fetch(`${host.origin}/`);
    expect(page.status).toBe(200);
    expect(await upgrade()).toBe(403);
    expect(await upgrade(`${host.cookie.split('=')[0]}=forged`)).toBe(403);
    expect(await upgrade(host.cookie, 'http://evil.example')).toBe(403);
    expect(await upgrade(await exchangeCode(await host.newLoginUrl()))).toBe(101);
  });

  it('a logged-in client gets a login link for another browser from the app (web.loginLink)', async () => {
    const { client, close } = host.connect();
    try {
      const { url, expires_at } = await client.invoke('web.loginLink', {});
      expect(expires_at - Date.now()).toBeLessThanOrEqual(60_000);
      expect(await upgrade(await exchangeCode(url))).toBe(101);
      await expect(exchangeCode(url)).rejects.toThrow(/403/);
    } finally {
      close();
    }
  });
});

describe('mewbo login', () => {
  it('prints a new working login link for the user who runs the host', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'login'], {
      env: { ...process.env, MEWBO_HOME: home.dir },
    });
    const url = stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?code=/);
    expect(await upgrade(await exchangeCode(url))).toBe(101);
  });

  it('an unconfined shell forges a login as `mewbo login` does; a sandboxed shell cannot', async () => {
    const project = join(home.dir, '..', `${home.dir.split('/').pop()}-project`);
    mkdirSync(project, { recursive: true });
    // What a hostile command would run: read the secret, sign a code request, buy the cookie.
    writeFileSync(
      join(project, 'forge.cjs'),
      `const fs = require('fs'), crypto = require('crypto');
       const [home, port] = process.argv.slice(2);
       const secret = Buffer.from(fs.readFileSync(home + '/configs/web-host.key', 'utf8').trim(), 'hex');
       const ts = Date.now(), nonce = crypto.randomBytes(16).toString('hex');
       const mac = crypto.createHmac('sha256', secret).update('mewbo-login-code-v2\\n127.0.0.1:' + port + '\\n' + ts + '\\n' + nonce).digest('hex');
       fetch('http://127.0.0.1:' + port + '/login/code', { method: 'POST', headers: { 'x-mewbo-login-proof': ts + '.' + nonce + '.' + mac } })
         .then((r) => r.json()).then((j) => console.log('FORGED ' + j.url));`,
    );
    const shell = async (sandbox: boolean): Promise<string> => {
      writeFileSync(
        join(home.dir, 'configs', 'app.json'),
        JSON.stringify({ agent: { shell_sandbox: sandbox } }),
      );
      const command = `${process.execPath} forge.cjs ${home.dir} ${host.port} 2>&1`;
      const { stdout } = await run(
        process.execPath,
        [CLI, 'tool', 'aider_shell_tool', '--root', project, '--args', JSON.stringify({ command })],
        { env: { ...process.env, MEWBO_HOME: home.dir } },
      ).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
      return (JSON.parse(stdout) as { stdout: string }).stdout;
    };
    try {
      const unconfined = await shell(false);
      expect(unconfined).toMatch(/FORGED http:\/\/127\.0\.0\.1:\d+\/login\?code=/);
      const confined = await shell(true);
      expect(confined).not.toContain('FORGED');
      expect(confined).toMatch(/EACCES|permission denied/i);
    } finally {
      (await import('node:fs')).rmSync(project, { recursive: true, force: true });
    }
  });
});
