// The `@` token the caret is in, and what picking a file makes of it. The host reads the same
// syntax back (electron/host/sessions/file-mentions.ts): `@path`, or `@"path"` when it has spaces.

export interface ActiveMention {
  /** Index of the `@`. */
  start: number;
  /** End of the token (the caret may sit inside it). */
  end: number;
  /** What follows the `@` up to the caret. */
  query: string;
}

/** `@` at the start or after white space, then the characters typed so far (no space, no quote). */
const TYPING = /(?:^|\s)@([^\s"]*)$/;

/** The mention being typed where the caret is, or null. */
export function activeMention(text: string, caret: number): ActiveMention | null {
  const m = TYPING.exec(text.slice(0, caret));
  if (!m) return null;
  const start = caret - m[1]!.length - 1;
  const rest = /^[^\s]*/.exec(text.slice(caret))![0];
  return { start, end: caret + rest.length, query: m[1]! };
}

/** The text with the token replaced by a mention of `path` and a space, and the caret after it. */
export function insertMention(
  text: string,
  token: ActiveMention,
  path: string,
): { text: string; caret: number } {
  const ref = /\s|"/.test(path) ? `@"${path.replace(/"/g, '')}"` : `@${path}`;
  const after = text.slice(token.end).replace(/^ /, '');
  return {
    text: `${text.slice(0, token.start)}${ref} ${after}`,
    caret: token.start + ref.length + 1,
  };
}
