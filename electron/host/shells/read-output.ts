import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import type { ShellSessionPayload } from '../../../shared/tools/shell-payload';
import { RESULT_CAP_CHARS } from './constants';
import { capMiddle } from './output-cap';
import type { ShellSession } from './shell-session';

// A read of a background shell: output after the cursor, an optional display filter, the cap.
// The cursor returned is always where an unfiltered read would leave it: the end of what was
// read, never where the last matching line was.

/** A filter as the model writes it; "(?i)" in front asks for case-insensitive matching. */
export function compileFilter(filter: string): RegExp | ErrorPayload {
  const insensitive = filter.startsWith('(?i)');
  try {
    return new RegExp(insensitive ? filter.slice(4) : filter, insensitive ? 'i' : '');
  } catch (err) {
    return errorPayload(
      'invalid_args',
      `filter is not a valid regular expression: ${(err as Error).message}`,
      { filter },
    );
  }
}

/** The lines of `text` that match, joined as they were (a partial last line counts as a line). */
export function filterLines(text: string, re: RegExp): string {
  const lines = text.split('\n');
  const last = lines.length - 1;
  const kept: string[] = [];
  lines.forEach((line, i) => {
    if (i === last && line === '') return;
    if (re.test(line.endsWith('\r') ? line.slice(0, -1) : line))
      kept.push(i === last ? line : `${line}\n`);
  });
  return kept.join('');
}

export interface ReadOptions {
  operation: 'read' | 'write' | 'kill';
  cursor?: number;
  filter?: RegExp;
  filterSource?: string;
}

export function readPayload(session: ShellSession, opts: ReadOptions): ShellSessionPayload {
  const slice = session.buffer.read(opts.cursor);
  // Without a cursor, what was evicted after the agent's last read is what it missed: said on the
  // first read after the eviction, cursor or not (seed row 9).
  const missed =
    opts.cursor === undefined
      ? Math.max(0, session.buffer.start - session.agentReadTo)
      : slice.missed;
  session.agentReadTo = Math.max(session.agentReadTo, slice.to);
  const shown = opts.filter ? filterLines(slice.text, opts.filter) : slice.text;
  const capped = capMiddle(shown, RESULT_CAP_CHARS);
  const refused = session.takeRefused();
  return {
    kind: 'shell_session',
    operation: opts.operation,
    ...session.info(),
    output: capped.text,
    cursor: slice.to,
    ...(missed > 0 ? { missed_characters: missed } : {}),
    ...(capped.truncated > 0 ? { truncated_characters: capped.truncated } : {}),
    ...(opts.filterSource !== undefined ? { filter: opts.filterSource } : {}),
    ...(refused.length ? { network_refused: refused } : {}),
  };
}

/** A filtered wait looks at most this far back for a match, so a chatty shell costs linear time. */
const MATCH_WINDOW_CHARS = 262_144;

/** For a filtered wait: does output after `from` hold a matching line yet? */
export function hasMatchAfter(session: ShellSession, from: number, re: RegExp): boolean {
  const start = Math.max(from, session.buffer.end - MATCH_WINDOW_CHARS);
  return filterLines(session.buffer.read(start).text, re).length > 0;
}

/**
 * Whether a tty's output after a write holds more than the terminal's echo of the input: a
 * write waits for the command's answer, not for the echo that arrives first.
 */
export function beyondEcho(text: string, input: string): boolean {
  let rest = text;
  const at = input ? rest.indexOf(input) : -1;
  if (at !== -1 && rest.slice(0, at).trim() === '') rest = rest.slice(at + input.length);
  return rest.trim().length > 0;
}
