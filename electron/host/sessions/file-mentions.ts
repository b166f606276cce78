import { realpath } from 'node:fs/promises';
import { PathValidationError, resolveInsideRoot, relativeToRoot } from '../fs/safe-path';
import { openForRead } from '../fs/safe-open';
import { looksBinary } from '../fs/text-sniff';
import type { FileMention } from '../../../shared/protocol/events';
import type { MentionBudget } from '../mcp/mcp-offerings';
import { MENTION_MAX_BYTES, MENTION_MAX_FILES, MENTION_TOTAL_BYTES } from './constants';

// `@path` in a user message names a project file (the composer's @ menu inserts them). At send
// time each named file inside the session's root is read, through the same verified open
// read_file uses, and kept with the message: the model gets the file as it was when the user
// sent it, and the log says exactly what was sent. A token that names no file stays plain text
// (an address, a handle). `@server:uri` names a connected MCP server's resource instead
// (mcp/mcp-offerings.ts), read within what the files leave of the same budgets.

/** `@path` or `@"path with spaces"`, at the start or after white space. */
const MENTION = /(?:^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g;
/** Punctuation that ends a sentence rather than a path ("see @a.ts, then"). */
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** The paths a message mentions, in order, each once. */
export function mentionedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(MENTION)) out.add(m[1] ?? m[2]!);
  return [...out];
}

/** What a mention may name: the token as written, then without the punctuation ending a sentence. */
export function mentionReadings(token: string): string[] {
  const trimmed = token.replace(TRAILING, '');
  return trimmed && trimmed !== token ? [token, trimmed] : [token];
}

const lenient = new TextDecoder('utf-8');

/** `root` is real (symlinks resolved), so the paths shown are relative to it. */
async function readMention(root: string, wanted: string, budget: number) {
  let real: string;
  try {
    real = resolveInsideRoot(root, wanted);
  } catch (err) {
    if (err instanceof PathValidationError) return null;
    throw err;
  }
  let opened;
  try {
    opened = await openForRead(root, real);
  } catch {
    return null; // not there (or a link planted since): plain text, not a mention
  }
  const { handle, stat } = opened;
  try {
    if (!stat.isFile()) return null;
    const size = Number(stat.size);
    const want = Math.min(size, MENTION_MAX_BYTES, budget);
    const buf = new Uint8Array(want);
    const { bytesRead } = await handle.read(buf, 0, want, 0);
    const bytes = buf.subarray(0, bytesRead);
    const path = relativeToRoot(root, real);
    if (looksBinary(bytes))
      return { path, text: '', note: `binary file (${size} bytes), not attached`, bytes: 0 };
    // A cut may split a character: its remains decode to U+FFFD and are dropped.
    const text = lenient.decode(bytes).replace(/\uFFFD+$/, '');
    const note =
      bytesRead < size
        ? `only the first ${bytesRead} of ${size} bytes are attached; read_file reads the rest`
        : undefined;
    return { path, text, ...(note ? { note } : {}), bytes: bytesRead };
  } finally {
    await handle.close();
  }
}

/**
 * Reads the files `text` mentions inside `root` (at most MENTION_MAX_FILES, within the byte
 * budgets). Paths that are outside the root, missing, or not regular files are skipped.
 */
export async function readMentions(sessionRoot: string, text: string): Promise<FileMention[]> {
  const out: FileMention[] = [];
  if (!mentionedPaths(text).length) return out;
  const root = await realpath(sessionRoot).catch(() => null);
  if (!root) return out;
  let budget = MENTION_TOTAL_BYTES;
  for (const token of mentionedPaths(text)) {
    if (out.length >= MENTION_MAX_FILES) break;
    let found = null;
    for (const reading of mentionReadings(token))
      found ??= await readMention(root, reading, budget);
    if (!found || out.some((m) => m.path === found.path)) continue;
    const { bytes, ...mention } = found;
    budget -= bytes;
    out.push(mention);
  }
  return out;
}

/** The message as the model reads it: the user's words, then each mentioned file. */
export function withMentionedFiles(text: string, mentions: readonly FileMention[] | undefined) {
  if (!mentions?.length) return text;
  const files = mentions.map(
    (m) =>
      `<file path="${m.path}"${m.note ? ` note="${m.note}"` : ''}>\n${m.text}${m.text.endsWith('\n') || !m.text ? '' : '\n'}</file>`,
  );
  return `${text}\n\nFiles the user mentioned, as they were when the message was sent:\n${files.join('\n')}`;
}

/** What the files attached to a message leave of the budgets, for its MCP resources. */
export function budgetAfter(files: readonly FileMention[]): MentionBudget {
  const used = files.reduce((n, m) => n + Buffer.byteLength(m.text), 0);
  return {
    perItem: MENTION_MAX_BYTES,
    total: Math.max(0, MENTION_TOTAL_BYTES - used),
    count: Math.max(0, MENTION_MAX_FILES - files.length),
  };
}
