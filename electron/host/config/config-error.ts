import type { ConfigProblem } from '../../../shared/protocol/config-problem';

/** A config the app will not act on: its message names the file and key (the CLI prints it). */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Throws a ConfigError naming every error among `problems`; warnings pass. */
export function refuseConfigErrors(problems: readonly ConfigProblem[]): void {
  const errors = problems.filter((p) => p.level === 'error');
  if (errors.length) throw new ConfigError(errors.map((p) => p.message).join('\n'), errors[0]!.key);
}
