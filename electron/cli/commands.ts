import type { CliCommand } from './command';
import { serveCommand } from './serve';
import { toolCommand } from './tool';

// The registry of `mewbo` subcommands: one file per command, one line here.
export const commands: CliCommand[] = [
  serveCommand,
  toolCommand,
];
