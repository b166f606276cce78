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

// Node's own modules that an idle host must not load: undici (with its WebAssembly HTTP parser)
// loads at the first fetch(), and the page's models.status probes Ollama at every open, through
// node:http for this reason (probe-json.ts).
const BUILTINS_LOADED_ON_FIRST_USE = ['internal/deps/undici/undici'];

// Node's module hooks (the --import below): every module the process loads, one URL a line.
// The --import itself writes Node's own modules loaded (process.moduleLoadList) at exit.
const REGISTER = (hooks: string) => `import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(`file://${hooks}`)});
process.on('exit', () =>
  appendFileSync(process.env.MEWBO_TEST_BUILTIN_LOG, process.moduleLoadList.join('\\n')),
);
`;
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
  it('after its page and its WebSocket, and the first models.status the page sends, has loaded the host but none of what loads on first use', async () => {
    const hooks = join(home.dir, 'hooks.mjs');
    const register = join(home.dir, 'register.mjs');
    const log = join(home.dir, 'modules.log');
    writeFileSync(hooks, HOOKS);
    const builtins = join(home.dir, 'builtins.log');
    writeFileSync(register, REGISTER(hooks));
    writeFileSync(log, '');
    writeFileSync(builtins, '');
    // No model is set, so models.status (below) probes Ollama, where nothing answers.
    const withoutModelEnv = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|OLLAMA)_/.test(k)),
    );
    const child = spawn(process.execPath, ['--import', register, CLI, 'serve', '--port', '0'], {
      env: {
        ...withoutModelEnv,
        MEWBO_HOME: join(home.dir, 'home'),
        MEWBO_TEST_MODULE_LOG: log,
        MEWBO_TEST_BUILTIN_LOG: builtins,
        OLLAMA_BASE_URL: 'http://127.0.0.1:9',
      },
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
      // What the page asks at every open (bench/cli-startup.bench.ts has the whole list).
      const status = new Promise<{ ok: boolean; value?: unknown }>((resolve) =>
        ws.on('message', (data, binary) => {
          const frame = JSON.parse(String(data)) as { t: string; id?: number };
          if (!binary && frame.t === 'result' && frame.id === 1) resolve(frame as never);
        }),
      );
      ws.send(JSON.stringify({ t: 'invoke', id: 1, method: 'models.status', params: {} }));
      const answered = await status;
      ws.close();

      const sources = sourcesOf(readFileSync(log, 'utf8'));
      // The log saw the host's chunks: an empty or broken log would pass the check below.
      expect(sources.some((s) => s.endsWith('electron/host/host.ts'))).toBe(true);
      const eager = LOADED_ON_FIRST_USE.filter((lazy) => sources.some((s) => s.includes(lazy)));
      expect(eager).toEqual([]);
      child.kill('SIGTERM');
      await exited;
      // The probe ran (no model is set) and found nothing.
      expect(answered).toMatchObject({ ok: true, value: { selected: null } });
      const loaded = readFileSync(builtins, 'utf8').split('\n');
      // The exit hook ran: an empty log would pass the check below.
      expect(loaded).toContain('NativeModule internal/url');
      const eagerBuiltins = BUILTINS_LOADED_ON_FIRST_USE.filter((m) =>
        loaded.includes(`NativeModule ${m}`),
      );
      expect(eagerBuiltins).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
