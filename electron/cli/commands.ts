import type { CliCommand } from './command';

// The registry of `mewbo` subcommands: one file per command, one line here.
export const commands: CliCommand[] = [];
