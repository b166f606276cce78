import { readFile } from 'node:fs/promises';
import { countOccurrences } from '../../../shared/find-text';

// Search over what was said in a session (the user's and the agent's messages), for the sidebar.
// Reads the log file as text and parses only the lines that contain the query, so a search over
// every session costs about one read of each log.

export interface SessionHit {
  /** The matched message around the match, one line. */
  snippet: string;
}

/** Characters of context kept on each side of a match in a snippet. */
const SNIPPET_SIDE_CHARS = 40;

export function snippetAround(text: string, at: number, length: number): string {
  const from = Math.max(0, at - SNIPPET_SIDE_CHARS);
  const to = Math.min(text.length, at + length + SNIPPET_SIDE_CHARS);
  const body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}

/**
 * The messages (the user's and the agent's) of the log at `logPath` that may hold `q` (lower
 * case), in log order, parsing only the lines that can; none when the log cannot be read.
 */
async function* messagesWith(
  logPath: string,
  q: string,
): AsyncGenerator<{ text: string; seq: unknown }> {
  let raw: string;
  try {
    raw = await readFile(logPath, 'utf8');
  } catch {
    return;
  }
  // JSON escapes only quotes, backslashes and control characters: a query without them appears
  // in the file as typed, so a line that lacks it cannot match.
  const plain = ![...q].some((c) => c === '"' || c === '\\' || c.charCodeAt(0) < 0x20);
  if (plain && !raw.toLowerCase().includes(q)) return;
  for (const line of raw.split('\n')) {
    if (plain && !line.toLowerCase().includes(q)) continue;
    let e: { type?: unknown; text?: unknown; seq?: unknown };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      continue;
    }
    if ((e.type !== 'user_message' && e.type !== 'assistant_message') || typeof e.text !== 'string')
      continue;
    yield { text: e.text, seq: e.seq };
  }
}

/** Messages before `before` holding `query` (Ctrl+F in a paged conversation), oldest first. */
export async function findInLog(
  logPath: string,
  query: string,
  before: number,
): Promise<Array<{ seq: number; count: number }>> {
  const q = query.toLowerCase();
  const out: Array<{ seq: number; count: number }> = [];
  for await (const { text, seq } of messagesWith(logPath, q)) {
    if (typeof seq !== 'number' || seq >= before) continue;
    const count = countOccurrences(text, q);
    if (count) out.push({ seq, count });
  }
  return out;
}

export async function searchLog(logPath: string, query: string): Promise<SessionHit | null> {
  const q = query.trim().toLowerCase();
  if (!q) return null;
  for await (const { text } of messagesWith(logPath, q)) {
    const at = text.toLowerCase().indexOf(q);
    if (at >= 0) return { snippet: snippetAround(text, at, q.length) };
  }
  return null;
}
