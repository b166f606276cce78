// ssh joins its command arguments into one string that the remote user's login shell parses, so
// every word the app sends is quoted for a POSIX shell first.

/** `word` as one POSIX shell word: single-quoted, each ' written as '\''. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
