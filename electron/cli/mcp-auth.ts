import { homePaths } from '../host/config/paths';
import { loadConfigFile } from '../host/config/load-config';
import type { McpServerConfig } from '../host/config/schema';
import { SIGN_IN_WAIT_MS } from '../host/mcp/constants';
import { McpServerAuth, type SignInStatus } from '../host/mcp/oauth/server-auth';
import { readProjectMcpConfig } from '../host/mcp/project-config';
import { specKey, type McpServerSpec } from '../host/mcp/server-spec';
import { FileSecretStore } from '../host/secrets/file-secret-store';
import { browserOpener } from '../host/system/browser-opener';
import { parseCliArgs, UsageError, type CliCommand } from './command';
import { rootOption } from './root-option';

const usage = `Usage: mewbo mcp-auth login NAME [--project DIR]
       mewbo mcp-auth logout NAME [--project DIR]
       mewbo mcp-auth status [NAME] [--project DIR]

Signs in to an MCP server behind OAuth: NAME in mcpServers of configs/app.json, or with --project
in DIR's .mcp.json. login opens the authorization page ($BROWSER, else the system opener; the
address is printed too) and waits up to ${SIGN_IN_WAIT_MS / 60_000} minutes for the browser to come back to 127.0.0.1.
Tokens go to $MEWBO_HOME/configs/secrets.json (0600), never to a config file; logout forgets them.
A running app picks a new sign-in up when the server is restarted from Settings.`;

type HttpConfig = Extract<McpServerConfig, { url: string }>;

interface Target {
  spec: McpServerSpec & { config: HttpConfig };
  auth: McpServerAuth;
}

async function servers(project: string | undefined): Promise<McpServerSpec[]> {
  if (project === undefined) {
    const config = loadConfigFile(homePaths().configFile, (line) =>
      process.stderr.write(`mewbo mcp-auth: ${line}\n`),
    );
    return Object.entries(config.mcpServers).map(([name, c]) => ({
      name,
      scope: 'app',
      root: null,
      config: c,
    }));
  }
  const { servers: found, errors } = await readProjectMcpConfig(project);
  for (const e of Object.values(errors)) process.stderr.write(`mewbo mcp-auth: ${e}\n`);
  return Object.entries(found).map(([name, c]) => ({
    name,
    scope: 'project',
    root: project,
    config: c,
  }));
}

function target(spec: McpServerSpec): Target | null {
  const config = spec.config;
  if (!('url' in config)) return null;
  const secrets = new FileSecretStore(homePaths().secretsFile);
  return {
    spec: { ...spec, config },
    auth: new McpServerAuth(spec.name, specKey(spec), config.url, config.oauth, secrets),
  };
}

function describeStatus(name: string, s: SignInStatus, now = Date.now()): string {
  if (!s.signed_in)
    return s.grant === 'client_credentials'
      ? `${name}: machine client (client_credentials); it gets its own token when it connects`
      : `${name}: not signed in`;
  const parts = [`${name}: signed in`];
  if (s.issuer) parts.push(`by ${s.issuer}`);
  if (s.scopes.length) parts.push(`scopes ${s.scopes.join(' ')}`);
  if (s.expires_at !== null) {
    const minutes = Math.round((s.expires_at - now) / 60_000);
    parts.push(minutes > 0 ? `access expires in ${minutes} min` : 'access expired');
  }
  parts.push(s.refreshable ? 'renewable' : 'not renewable (sign in again when it expires)');
  return parts.join(', ');
}

async function login(t: Target): Promise<number> {
  const name = t.spec.name;
  if (!(await t.auth.probe(t.spec.config.headers)) && !t.auth.machine) {
    process.stdout.write(`${name} does not ask for a sign-in: nothing to do\n`);
    return 0;
  }
  const browser = browserOpener();
  await t.auth.signIn({
    waitMs: SIGN_IN_WAIT_MS,
    open: async (url) => {
      const how = browser
        ? await browser.open(url).then(
            () => `opened with ${browser.name}`,
            (err: Error) => `could not open it (${err.message})`,
          )
        : 'no browser can be opened here';
      process.stderr.write(
        `mewbo mcp-auth: sign in to ${name} at this page (${how}); waiting up to ${SIGN_IN_WAIT_MS / 60_000} minutes:\n${url}\n`,
      );
    },
  });
  process.stdout.write(`${describeStatus(name, await t.auth.status())}\n`);
  return 0;
}

export const mcpAuthCommand: CliCommand = {
  name: 'mcp-auth',
  usage,
  async run(argv) {
    const { values, positionals } = parseCliArgs({
      args: argv,
      allowPositionals: true,
      options: { project: { type: 'string' } },
    });
    const [action, name, ...extra] = positionals;
    if (!action || !['login', 'logout', 'status'].includes(action))
      throw new UsageError('say login, logout or status');
    if (extra.length) throw new UsageError(`unexpected: ${extra.join(' ')}`);
    if (action !== 'status' && !name) throw new UsageError(`${action} needs the server's NAME`);
    const project = values.project === undefined ? undefined : rootOption(values.project);
    // A bad configs/app.json is a ConfigError the CLI reports (the one-shot commands refuse).
    const specs = await servers(project);
    const where = project ? `${project}/.mcp.json` : 'mcpServers of configs/app.json';
    const chosen = name ? specs.filter((s) => s.name === name) : specs;
    if (name && chosen.length === 0) {
      const known = specs.map((s) => s.name).join(', ') || 'none';
      process.stderr.write(`mewbo mcp-auth: no server '${name}' in ${where} (there: ${known})\n`);
      return 1;
    }
    const targets = chosen.flatMap((s) => target(s) ?? []);
    if (name && targets.length === 0) {
      process.stderr.write(`mewbo mcp-auth: '${name}' is a stdio server: it has no sign-in\n`);
      return 1;
    }
    try {
      if (action === 'login') return await login(targets[0]!);
      if (action === 'logout') {
        await targets[0]!.auth.signOut();
        process.stdout.write(`${name}: signed out (its tokens and registration are forgotten)\n`);
        return 0;
      }
      if (targets.length === 0) process.stdout.write(`no HTTP MCP servers in ${where}\n`);
      for (const t of targets)
        process.stdout.write(`${describeStatus(t.spec.name, await t.auth.status())}\n`);
      return 0;
    } catch (err) {
      process.stderr.write(`mewbo mcp-auth: ${name}: ${(err as Error).message}\n`);
      return 1;
    }
  },
};
