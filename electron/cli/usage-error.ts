const BRAND = Symbol.for('mewbo.UsageError');

/**
 * Bad usage: the CLI prints the message and the command's usage, and exits 2. The CLI's entry and
 * each command bundle hold their own copy of this class (electron/cli/code-cache.ts), so
 * `instanceof` goes by a registered symbol, not by the class object.
 */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly [BRAND] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}
