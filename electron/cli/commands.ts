import type { CliCommand } from './command';
import { commandBundle } from './code-cache';

// The registry of `mewbo` subcommands: one file per command, one entry here. A command's code is
// loaded only when that command runs, so `mewbo --help` loads none of them and each command loads
// only what it uses (start-up like a small tool, issues #18 and #26): a bundle of its own
// (dist/cli-NAME.cjs: electron/cli/NAME.ts and what it imports) run with a V8 code cache
// (code-cache.ts), or for serve chunks loaded by import().

export interface CliCommandEntry {
  name: string;
  summary: string;
  load(): Promise<CliCommand>;
}

export const commands: CliCommandEntry[] = [
  {
    name: 'serve',
    summary: 'run the web host: the UI and the protocol over WebSocket on 127.0.0.1',
    load: async () => {
      // Held before the host's modules load: loading them is most of start-up's work.
      // Imported here: node:v8 (and the stream modules it loads) is for serve alone.
      const { holdV8GrowthDuringStartup } = await import('../host/system/startup-heap');
      const startedUp = holdV8GrowthDuringStartup();
      // Chunks, not a code-cached bundle: the bundle (6 MB with every model SDK in it) and its
      // cache held in memory made the idle host 11 MiB larger for no gain in start-up.
      return (await import('./serve')).serveCommand(startedUp);
    },
  },
  {
    name: 'tool',
    summary: 'run one built-in tool without a model and print its JSON payload',
    load: async () => commandBundle<typeof import('./tool')>('tool').exports.toolCommand,
  },
  {
    name: 'mcp',
    summary: 'serve the built-in tools over MCP stdio',
    load: async () => commandBundle<typeof import('./mcp')>('mcp').exports.mcpCommand,
  },
  {
    name: 'acp',
    summary: "run the app's agent over the Agent Client Protocol on stdio (Zed and other editors)",
    load: async () => commandBundle<typeof import('./acp')>('acp').exports.acpCommand,
  },
  {
    name: 'mcp-auth',
    summary: 'sign in to, sign out of, or show the sign-in of MCP servers behind OAuth',
    load: async () => commandBundle<typeof import('./mcp-auth')>('mcp-auth').exports.mcpAuthCommand,
  },
  {
    name: 'run',
    summary: 'run one headless agent session on a project, streaming its events as JSON lines',
    load: async () => commandBundle<typeof import('./run')>('run').exports.runCommand,
  },
  {
    name: 'remote-part',
    summary: "serve this machine's tools to the app over SSH (started by the app, not by hand)",
    load: async () =>
      commandBundle<typeof import('./remote-part')>('remote-part').exports.remotePartCommand,
  },
  {
    name: 'remote-mcp',
    summary: "run a trusted project's MCP server on this machine (started by the app over SSH)",
    load: async () =>
      commandBundle<typeof import('./remote-mcp')>('remote-mcp').exports.remoteMcpCommand,
  },
  {
    name: 'login',
    summary: 'print a new one-time login link for the running web host',
    load: async () => commandBundle<typeof import('./login')>('login').exports.loginCommand,
  },
  {
    name: 'projects',
    summary: 'list, add (a folder or an ssh:// URL) and remove projects',
    load: async () =>
      commandBundle<typeof import('./projects')>('projects').exports.projectsCommand,
  },
  {
    name: 'sessions',
    summary: 'list, export, import, fork and rewind sessions',
    load: async () =>
      commandBundle<typeof import('./sessions')>('sessions').exports.sessionsCommand,
  },
];
