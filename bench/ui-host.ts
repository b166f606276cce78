import { chromium, type Browser } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// `mewbo serve` and Debian's Chromium for the UI benchmarks. bench/run.mjs runs bundles from node_modules/.cache with
// the repo as the working directory, so paths come from cwd, not from import.meta.url.

export const ROOT = process.cwd();

export interface BenchHost {
  /** The one-time login URL the host printed: page.goto(url) logs the page in (cookie). */
  url: string;
  /** http://127.0.0.1:PORT, for later visits of a logged-in page. */
  origin: string;
  /** The page's own socket URL; a logged-in page sends the cookie on it by itself. */
  wsUrl: string;
  stop(): Promise<void>;
}

export function requireBuild(): void {
  if (
    !existsSync(join(ROOT, 'dist/cli.js')) ||
    !existsSync(join(ROOT, 'dist/renderer/index.html'))
  ) {
    console.error('build first: node build/build.mjs');
    process.exit(1);
  }
}

export async function serve(home: string, env: NodeJS.ProcessEnv = {}): Promise<BenchHost> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'serve'], {
    env: { ...process.env, MEWBO_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error('mewbo serve did not print its URL in 20 s')),
      20_000,
    );
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/\S+\/login\?code=\S+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.once('exit', (code) => reject(new Error(`mewbo serve exited with ${code}`)));
  });
  const u = new URL(url);
  return {
    url,
    origin: u.origin,
    wsUrl: `ws://${u.host}/ws`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Debian's Chromium (CHROMIUM_PATH to use another), headless, as the e2e tests run it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
}
