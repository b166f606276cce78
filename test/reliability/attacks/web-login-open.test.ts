import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { browserOpener } from '../../../electron/host/system/browser-opener';
import { exchangeCode } from '../../helpers/web-login';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';

// `mewbo serve --open` (issue #25 part 7): the browser it starts must not carry the one-time login
// code on its command line, which every process of every user reads (/proc/PID/cmdline, `ps`): an
// agent's sandboxed shell, or another user, could spend the code first and be logged in. The
// browser here is a $BROWSER script that records its argv and its own /proc cmdline, then waits
// until the test has looked at every process's command line. Control: the same browser opened
// the way `serve --open` did before (the link as its argument) shows the code to any process, and
// the code read from its /proc cmdline logs a stranger in.

let home: ReturnType<typeof tempDir> | undefined;
let host: HostProcess | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
  home?.cleanup();
  home = undefined;
});

/** A $BROWSER that records what it was given and stays alive until `release()`. */
function fakeBrowser(dir: string) {
  const script = join(dir, 'browser.sh');
  const record = join(dir, 'record');
  const done = join(dir, 'done');
  writeFileSync(
    script,
    `#!/bin/sh
{ printf 'pid %s\\n' "$$"; printf 'arg %s\\n' "$@"; printf 'cmdline '; tr '\\0' ' ' < /proc/$$/cmdline; echo; } > ${record}.tmp
mv ${record}.tmp ${record}
i=0; while [ ! -e ${done} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
`,
  );
  chmodSync(script, 0o755);
  return {
    script,
    async recorded(): Promise<{ pid: number; args: string[]; cmdline: string }> {
      for (let i = 0; i < 400 && !existsSync(record); i++)
        await new Promise((r) => setTimeout(r, 25));
      const lines = readFileSync(record, 'utf8').split('\n');
      return {
        pid: Number(lines.find((l) => l.startsWith('pid '))!.slice(4)),
        args: lines.filter((l) => l.startsWith('arg ')).map((l) => l.slice(4)),
        cmdline: lines.find((l) => l.startsWith('cmdline ')) ?? '',
      };
    },
    release: () => writeFileSync(done, ''),
  };
}

/** Every process's command line now, as one text per process (what `ps -ef` shows anyone). */
function everyCommandLine(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const codeIn = (text: string) => /[?&]code=([^&"\s]+)/.exec(text)?.[1];

describe('the browser serve --open starts', () => {
  it('unprotected: a login link given as the browser argument is on its command line, and a stranger who reads it logs in', async () => {
    home = tempDir('mewbo-attack-open-');
    host = await startHost(home.dir, {}, ['--port', '0']);
    const browser = fakeBrowser(home.dir);
    const link = await host.newLoginUrl();
    // What `serve --open` did: the link itself as the opener's argument.
    await browserOpener({ BROWSER: browser.script })!.open(link);
    const seen = await browser.recorded();
    const code = codeIn(link)!;
    expect(seen.cmdline).toContain(code);
    // Any process reads it there, and spends it before the browser does.
    const stolen = readFileSync(`/proc/${seen.pid}/cmdline`, 'utf8');
    expect(everyCommandLine().some((c) => c.includes(code))).toBe(true);
    browser.release();
    const cookie = await exchangeCode(`${host.origin}/login?code=${codeIn(stolen)}`);
    expect(cookie).toMatch(/=/);
  });

  it('protected: the browser gets an owner-only page that redirects to a loopback login link; no command line holds the code', async () => {
    home = tempDir('mewbo-attack-open-');
    const browser = fakeBrowser(home.dir);
    // Listening on every address: the page sends the browser to the loopback one.
    host = await startHost(home.dir, { BROWSER: browser.script }, [
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--open',
    ]);
    const seen = await browser.recorded();
    expect(seen.args).toHaveLength(1);
    const page = fileURLToPath(seen.args[0]!);
    expect(page.startsWith(join(home.dir, 'state', 'login-pages') + '/')).toBe(true);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(join(home.dir, 'state', 'login-pages')).mode & 0o777).toBe(0o700);
    const html = readFileSync(page, 'utf8');
    const target = /url=([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect(target).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/login\\?code=`));
    const code = codeIn(target)!;
    expect(seen.cmdline).not.toContain(code);
    expect(everyCommandLine().filter((c) => c.includes(code))).toEqual([]);
    browser.release();
    // The page's link logs the browser in, once; it is not the link printed on the terminal.
    expect(code).not.toBe(codeIn(host.url));
    expect(await exchangeCode(target)).toMatch(/=/);
    await expect(exchangeCode(target)).rejects.toThrow(/HTTP 403/);
    // The page goes with the host.
    await host.stop();
    expect(existsSync(page)).toBe(false);
  });
});
