import type { CliCommand } from './command';
import { holdYoungGenerationDuringStartup } from '../host/system/startup-heap';

// The registry of `mewbo` subcommands: one file per command, one entry here. A command's module is
// imported only when that command runs, so `mewbo --help` loads none of them and each command
// loads only what it uses (start-up like a small tool, issue #18).

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
      // Held before the host's modules load: loading them is most of start-up's allocation.
      const startedUp = holdYoungGenerationDuringStartup();
      return (await import('./serve')).serveCommand(startedUp);
    },
  },
  {
    name: 'tool',
    summary: 'run one built-in tool without a model and print its JSON payload',
    load: async () => (await import('./tool')).toolCommand,
  },
  {
    name: 'mcp',
    summary: 'serve the built-in tools over MCP stdio',
    load: async () => (await import('./mcp')).mcpCommand,
  },
  {
    name: 'acp',
    summary: "run the app's agent over the Agent Client Protocol on stdio (Zed and other editors)",
    load: async () => (await import('./acp')).acpCommand,
  },
  {
    name: 'mcp-auth',
    summary: 'sign in to, sign out of, or show the sign-in of MCP servers behind OAuth',
    load: async () => (await import('./mcp-auth')).mcpAuthCommand,
  },
  {
    name: 'run',
    summary: 'run one headless agent session on a project, streaming its events as JSON lines',
    load: async () => (await import('./run')).runCommand,
  },
  {
    name: 'remote-part',
    summary: "serve this machine's tools to the app over SSH (started by the app, not by hand)",
    load: async () => (await import('./remote-part')).remotePartCommand,
  },
  {
    name: 'login',
    summary: 'print a new one-time login link for the running web host',
    load: async () => (await import('./login')).loginCommand,
  },
  {
    name: 'projects',
    summary: 'list, add (a folder or an ssh:// URL) and remove projects',
    load: async () => (await import('./projects')).projectsCommand,
  },
  {
    name: 'sessions',
    summary: 'list, export, import, fork and rewind sessions',
    load: async () => (await import('./sessions')).sessionsCommand,
  },
];
