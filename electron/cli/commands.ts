import type { CliCommand } from './command';
import { serveCommand } from './serve';
import { toolCommand } from './tool';
import { mcpCommand } from './mcp';
import { runCommand } from './run';
import { loginCommand } from './login';
import { sessionsCommand } from './sessions';

// The registry of `mewbo` subcommands: one file per command, one line here.
export const commands: CliCommand[] = [
  serveCommand,
  toolCommand,
  mcpCommand,
  runCommand,
  loginCommand,
  sessionsCommand,
];
