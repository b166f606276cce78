/* eslint-disable @typescript-eslint/no-explicit-any -- tool schemas are whatever a scenario's server lists */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropic } from '../helpers/fake-anthropic';
import { runAtTheWindow } from './desktop-client';

// The app's MCP client as the conformance suite's client scenarios drive it, through the product
// path: the suite runs this with the scenario server's URL as the last argument (and the scenario
// in MCP_CONFORMANCE_SCENARIO, client settings in MCP_CONFORMANCE_CONTEXT). It writes a fresh
// $MEWBO_HOME whose configs/app.json names that server `conf`, and runs `mewbo run` with a
// scripted model (test/helpers/fake-anthropic.ts) that calls each of the server's tools once.
// A sign-in opens the stand-in browser, which follows the authorization server's redirects.
// Elicitation scenarios run the same config as `mewbo serve` with a user at the window instead
// (desktop-client.ts): a headless run declines every elicitation, as issue #27 asks.
// Bundled by test/conformance/run.mjs; argv: CLI_JS STAND_IN_BROWSER SERVER_URL.

const [cliJs, browserJs, serverUrl] = process.argv.slice(2) as [string, string, string];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>;

/** `mcpServers.conf.oauth` from the scenario's context: a pre-registered or machine client. */
function oauthConfig(): Record<string, unknown> | undefined {
  if (!context.client_id) return undefined;
  return {
    client_id: context.client_id,
    ...(context.client_secret ? { client_secret: context.client_secret } : {}),
    ...(context.private_key_pem
      ? { private_key_pem: context.private_key_pem, signing_algorithm: context.signing_algorithm }
      : {}),
    ...(scenario.startsWith('auth/client-credentials') ? { grant: 'client_credentials' } : {}),
  };
}

/** Arguments that satisfy a tool's input schema: the first of each type a test would pick. */
function argsFor(schema: any): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries<any>(schema?.properties ?? {})) {
    const type = Array.isArray(prop?.type) ? prop.type[0] : prop?.type;
    args[name] = prop?.enum
      ? prop.enum[0]
      : type === 'number' || type === 'integer'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : 'test';
  }
  return args;
}

const top = mkdtempSync(join(tmpdir(), 'mewbo-conformance-'));
const home = join(top, 'home');
const project = join(top, 'project');
mkdirSync(join(home, 'configs'), { recursive: true });
mkdirSync(project);
const oauth = oauthConfig();
writeFileSync(
  join(home, 'configs', 'app.json'),
  JSON.stringify({
    agent: { tool_search: 'off' },
    mcpServers: { conf: { type: 'http', url: serverUrl, ...(oauth ? { oauth } : {}) } },
    // The desktop path (elicitation scenarios) opens its session on this project.
    permission_mode: 'auto',
    projects: { conf: { path: project } },
  }),
);

const fake = await FakeAnthropic.start();
fake.script.push((req) => {
  const calls = (req.body.tools ?? [])
    .filter((t: any) => t.name.startsWith('mcp__conf__'))
    .map((t: any) => ({ name: t.name, args: argsFor(t.input_schema) }));
  return calls.length ? { toolCalls: calls } : { text: 'The server has no tools.' };
});

const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: home,
  MEWBO_HOME: home,
  ANTHROPIC_API_KEY: 'test-key',
  ANTHROPIC_BASE_URL: fake.url,
  OLLAMA_BASE_URL: 'http://127.0.0.1:9',
  BROWSER: `${process.execPath} ${browserJs}`,
};
const prompt = 'Call every tool once.';

// An elicitation scenario checks what a client that accepts sends; a headless run declines.
const code = scenario.startsWith('elicitation')
  ? await runAtTheWindow(cliJs, home, 'conf', prompt, env)
  : await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [cliJs, 'run', '--project', project, '--permission-mode', 'auto', prompt],
        { env, stdio: ['ignore', 'inherit', 'inherit'] },
      );
      child.on('close', resolve);
    });
await fake.close();
rmSync(top, { recursive: true, force: true });
process.exit(code ?? 1);
