/** One `mewbo` subcommand. Exit codes: 0 success, 1 a failure the command reports, 2 bad usage. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}
