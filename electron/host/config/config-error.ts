import type { ConfigProblem } from '../../../shared/protocol/config-problem';

const BRAND = Symbol.for('mewbo.ConfigError');

/**
 * A config the app will not act on: its message names the file and key (the CLI prints it). The
 * CLI's entry and its command bundles each hold a copy of this class (electron/cli/code-cache.ts),
 * so `instanceof` goes by a registered symbol, not by the class object.
 */
export class ConfigError extends Error {
  readonly [BRAND] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
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
