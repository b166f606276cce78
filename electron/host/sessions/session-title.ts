// A session's title until the user names it: the first line of its first message, so a list of
// sessions reads as what each is about instead of a column of "New session".

export const DEFAULT_SESSION_TITLE = 'New session';

/** Characters kept of the first line; the sidebar shows about this many. */
const TITLE_MAX_CHARS = 60;

export function titleFromMessage(text: string): string | null {
  const line = text
    .split('\n')
    .map((l) =>
      l
        // Markdown that says nothing about the subject: headings, list marks, quotes, fences.
        .replace(/^\s*(#{1,6}\s+|[-*+]\s+|>\s*|```\S*\s*$)/, '')
        .replace(/[`*_]/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .find((l) => l.length > 0);
  if (!line) return null;
  if (line.length <= TITLE_MAX_CHARS) return line;
  const cut = line.slice(0, TITLE_MAX_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
