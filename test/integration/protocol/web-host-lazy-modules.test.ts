import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLI } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import { exchangeCode } from '../../helpers/web-login';

// What an idle `mewbo serve` must not load (issue #26 part 4): each of these is loaded by its
// owner at its first use, and an import of it put back with the host's (a static one) would make
// every idle host hold its code and schemas again. The sources of the chunks the process loaded
// are read from their source maps (esbuild names each input file there).
const LOADED_ON_FIRST_USE = [
  // An SSH link to a remote project's host: the transport, the install, the command schemas.
  'electron/host/remote/remote-host.ts',
  // Copying the remote part to a host (3df1471).
  'node_modules/tar/',
  // The phone's LAN listener, when pairing is on: TLS server, device frames.
  'electron/host/devices/pairing-listener.ts',
  // An external ACP agent's first turn (e8c83bb).
  'node_modules/@agentclientprotocol/sdk/',
  // The first language-server call.
  'electron/host/lsp/lsp-service.ts',
  // The bash grammar, at the first shell command judged.
  'node_modules/web-tree-sitter/',
  // The model SDKs, at the first model call.
  'node_modules/@anthropic-ai/sdk/',
  'node_modules/openai/',
];

// Node's module hooks (the --import below): every module the process loads, one URL a line.
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.MEWBO_TEST_MODULE_LOG, url + '\\n');
  return next(url, context);
}
`;

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir('mewbo-lazy-modules-');
});
afterEach(() => home.cleanup());

/** The source files of the dist chunks whose URLs `log` lists, as their maps name them. */
function sourcesOf(log: string): string[] {
  const chunks = new Set(
    log
      .split('\n')
      .filter((url) => /\/dist\/cli[^/]*\.js$/.test(url))
      .map((url) => fileURLToPath(url)),
  );
  return [...chunks].flatMap(
    (file) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources,
  );
}

describe('an idle mewbo serve', () => {
  it('after its page and its WebSocket, has loaded the host but none of what loads on first use', async () => {
    const hooks = join(home.dir, 'hooks.mjs');
    const register = join(home.dir, 'register.mjs');
    const log = join(home.dir, 'modules.log');
    writeFileSync(hooks, HOOKS);
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
    );
    writeFileSync(log, '');
    const child = spawn(process.execPath, ['--import', register, CLI, 'serve', '--port', '0'], {
      env: { ...process.env, MEWBO_HOME: join(home.dir, 'home'), MEWBO_TEST_MODULE_LOG: log },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const loginUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /http:\/\/\S+\/login\?code=\S+/.exec(out);
          if (m) resolve(m[0]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      const cookie = await exchangeCode(loginUrl);
      const origin = new URL(loginUrl).origin;
      const page = await fetch(`${origin}/`, { headers: { cookie } });
      expect(page.status).toBe(200);
      await page.text();
      // The socket opens once the host has loaded (it waits for the router).
      const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/ws`, {
        headers: { cookie, origin },
      });
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.close();

      const sources = sourcesOf(readFileSync(log, 'utf8'));
      // The log saw the host's chunks: an empty or broken log would pass the check below.
      expect(sources.some((s) => s.endsWith('electron/host/host.ts'))).toBe(true);
      const eager = LOADED_ON_FIRST_USE.filter((lazy) => sources.some((s) => s.includes(lazy)));
      expect(eager).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
