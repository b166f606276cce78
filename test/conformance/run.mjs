// npm run conformance: the official MCP conformance suite (@modelcontextprotocol/conformance) against
// the app, in both roles, through the product path. It needs Node 22, which npm fetches from the
// registry with the suite (`npm exec -p node@22 -p @modelcontextprotocol/conformance`); the app
// itself runs on this Node. Needs `npm run build` first (dist/cli.js).
//   Client: each client scenario but enterprise-managed authorization (cross-app access) runs
//   test/conformance/client.ts, which runs `mewbo run` with the scenario's server in its config.
//   Server: the scenarios that apply to a tool server run against `mewbo mcp --http`, reached
//   through a local proxy that only adds the bearer token (the suite sends no Authorization
//   header) and keeps every other header as sent, Host and Origin included.
// Prints one line per scenario (PASS, or FAIL with the failing checks) and a total per role.
// Usage: npm run conformance [-- client|server] [scenario...]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const SUITE_NODE = 'node@22';
/** Enterprise-managed authorization is out of scope (issue #27). */
const SKIPPED_CLIENT = /^auth\/cross-app-access/;
/**
 * The server scenarios that apply to a tool server: lifecycle, ping, tools, logging, streams and
 * DNS rebinding. The rest test resources, prompts, completions, sampling and elicitation, which
 * `mewbo mcp` does not offer, or call fixture tools (test_simple_text...) only the suite's
 * reference server has.
 */
const SERVER_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];
/** A scenario's own time limit (ms): a sign-in and a `mewbo run` take a few seconds. */
const SCENARIO_TIMEOUT_MS = 60_000;

const repo = fileURLToPath(new URL('../..', import.meta.url));
const cliJs = join(repo, 'dist', 'cli.js');
const browserJs = join(repo, 'test', 'helpers', 'stand-in-browser.mjs');
const only = process.argv.slice(2);
const role = ['client', 'server'].includes(only[0]) ? only.shift() : undefined;
const work = mkdtempSync(join(tmpdir(), 'mewbo-conformance-run-'));

/** Runs the suite's CLI on Node 22; resolves with its output. */
function conformance(args) {
  return new Promise((resolve) => {
    const child = spawn(
      'npm',
      [
        'exec',
        '--yes',
        `--package=${SUITE_NODE}`,
        `--package=${SUITE}`,
        '--',
        'conformance',
        ...args,
      ],
      { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The files named `file` under `dir`. */
function filesUnder(dir, file) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, file);
    return name === file ? [path] : [];
  });
}

/** Every check of the results under `dir`. */
const checksUnder = (dir) =>
  filesUnder(dir, 'checks.json').flatMap((f) => JSON.parse(readFileSync(f, 'utf8')));

const lastLines = (file) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .slice(-3)
    .map((l) => `stderr: ${l.slice(0, 300)}`);

/** One scenario's line: PASS, or FAIL naming each failing check and why. */
function verdict(scenario, dir, out) {
  const checks = checksUnder(dir);
  const failed = checks.filter((c) => c.status === 'FAILURE');
  const warned = checks.filter((c) => c.status === 'WARNING');
  const passed = checks.length > 0 && failed.length === 0;
  const why = failed.map((c) => `${c.id}${c.errorMessage ? `: ${c.errorMessage}` : ''}`);
  if (!checks.length) why.push(`no results (${out.trim().split('\n').slice(-3).join(' | ')})`);
  // What the app said: the client's stderr (`mewbo run`'s notices and errors), last lines.
  if (!passed) why.push(...filesUnder(dir, 'stderr.txt').flatMap(lastLines));
  const warnings = warned.length
    ? ` (${warned.length} warning${warned.length > 1 ? 's' : ''})`
    : '';
  console.log(
    `${passed ? 'PASS' : 'FAIL'} ${scenario}${warnings}${why.length ? `\n       ${why.join('\n       ')}` : ''}`,
  );
  return passed;
}

async function listScenarios() {
  const { out } = await conformance(['list']);
  const section = (title) =>
    (out.split(title)[1] ?? '')
      .split('\n\n')[0]
      .split('\n')
      .map((l) => /^\s+- (\S+)/.exec(l)?.[1])
      .filter(Boolean);
  return { client: section('Client scenarios') };
}

async function runClient() {
  const bundle = join(work, 'client.mjs');
  await build({
    entryPoints: [join(repo, 'test', 'conformance', 'client.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // The desktop path's WebSocket (ws) is CommonJS: its require()s need one in an ESM bundle.
    banner: {
      js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
    },
  });
  const { client } = await listScenarios();
  const scenarios = client.filter(
    (s) => !SKIPPED_CLIENT.test(s) && (!only.length || only.includes(s)),
  );
  // The suite appends the server URL; the app runs on this Node, not the suite's.
  const command = `${process.execPath} ${bundle} ${cliJs} ${browserJs}`;
  let passed = 0;
  for (const scenario of scenarios) {
    const dir = join(work, 'client', scenario.replace(/\//g, '_'));
    const { out } = await conformance([
      'client',
      '--command',
      command,
      '--scenario',
      scenario,
      '--timeout',
      String(SCENARIO_TIMEOUT_MS),
      '-o',
      dir,
    ]);
    if (verdict(scenario, dir, out)) passed++;
  }
  console.log(`client: ${passed} of ${scenarios.length} scenarios pass\n`);
}

/** Starts `mewbo mcp --http` on a fresh $MEWBO_HOME; resolves with its URL, token and process. */
async function startToolServer() {
  const home = join(work, 'server-home');
  const env = { PATH: process.env.PATH, HOME: home, MEWBO_HOME: home };
  const child = spawn(process.execPath, [cliJs, 'mcp', '--http', '--root', work], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = / at (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('close', () => reject(new Error(`mewbo mcp --http ended: ${err}`)));
  });
  const token = await new Promise((resolve) => {
    const p = spawn(process.execPath, [cliJs, 'mcp', '--print-token'], { env });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', () => resolve(out.trim()));
  });
  return { url: new URL(url), token, child };
}

/**
 * The bearer-token proxy: forwards each request to the tool server as sent, adding only the
 * token. A Host or Origin naming the proxy itself (localhost or 127.0.0.1 at the proxy's port)
 * names the server's port instead, as if the suite had spoken to it directly; any other Host or
 * Origin (a DNS rebinding attacker's) goes through unchanged for the server to refuse.
 */
function tokenProxy(target, token) {
  const proxy = createServer((req, res) => {
    const own = new RegExp(`^(localhost|127\\.0\\.0\\.1):${proxy.address().port}$`);
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const toServer = (hostPort) => hostPort.replace(/:\d+$/, `:${target.port}`);
    if (own.test(req.headers.host ?? '')) headers.host = toServer(req.headers.host);
    const origin = /^http:\/\/(.+)$/.exec(req.headers.origin ?? '');
    if (origin && own.test(origin[1])) headers.origin = `http://${toServer(origin[1])}`;
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

async function runServer() {
  const server = await startToolServer();
  const proxy = await tokenProxy(server.url, server.token);
  const url = `http://localhost:${proxy.address().port}${server.url.pathname}`;
  const scenarios = SERVER_SCENARIOS.filter((s) => !only.length || only.includes(s));
  let passed = 0;
  try {
    for (const scenario of scenarios) {
      const dir = join(work, 'server', scenario);
      const { out } = await conformance([
        'server',
        '--url',
        url,
        '--scenario',
        scenario,
        '-o',
        dir,
      ]);
      if (verdict(scenario, dir, out)) passed++;
    }
  } finally {
    proxy.closeAllConnections();
    proxy.close();
    server.child.kill('SIGTERM');
  }
  console.log(`server (mewbo mcp --http): ${passed} of ${scenarios.length} scenarios pass`);
}

if (!existsSync(cliJs)) {
  console.error(`conformance: ${cliJs} is missing; run npm run build first`);
  process.exit(2);
}
try {
  if (role !== 'server') await runClient();
  if (role !== 'client') await runServer();
} finally {
  rmSync(work, { recursive: true, force: true });
}
