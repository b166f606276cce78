import { basename } from 'node:path';
import { sessionEventSchema, type SessionEvent } from '../../../shared/protocol/events';
import { errorPayload } from '../../../shared/tools/payload';
import { unresolvedCalls } from '../agent/session-state';
import { HostError } from '../rpc/host-error';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import type { Session } from './session';
import type { SessionManager } from './session-manager';
import { markdownTranscript } from './markdown-transcript';

// Sessions carried elsewhere: a fork (a new session from a prefix of the log, sharing nothing
// mutable with the original), an export (the log itself as JSON lines, or a readable markdown
// transcript) and an import (an exported log back as a new session, bound to the project the
// user picks and with none of the file's authority).

/** A fork of `session` holding its events [0, atSeq) (all of them without atSeq). */
export async function forkSession(
  sessions: SessionManager,
  session: Session,
  atSeq?: number,
): Promise<Session> {
  const end = atSeq ?? session.length;
  if (end < 1 || end > session.length)
    throw new HostError(
      'bad_turn',
      `cannot fork at event ${end}: the session has events 0 to ${session.length - 1}`,
    );
  // Deep copies: the new log shares no object with the original's in-memory events.
  const prefix = session.events(0, end).map((e) => structuredClone(e) as SessionEvent);
  const title = forkTitle(
    session.meta.title,
    (await sessions.list()).map((s) => s.title),
  );
  const fork = await sessions.createFrom(
    {
      title,
      project: session.meta.project,
      root: session.meta.root,
    },
    prefix,
  );
  await fork.append({ type: 'session_forked', from_session: session.id, at_seq: end });
  await sessions.rename(fork.id, title, 'app');
  return fork;
}

const FORK_PREFIX = /^Fork \d+: /;

/**
 * "Fork N: title", N the first number no session's title has: the part that tells forks apart
 * comes first, where a list that cuts long titles still shows it (a "(fork)" suffix was cut off).
 */
export function forkTitle(title: string, taken: readonly string[]): string {
  const base = title.replace(FORK_PREFIX, '');
  const used = new Set(taken);
  let n = 1;
  while (used.has(`Fork ${n}: ${base}`)) n++;
  return `Fork ${n}: ${base}`;
}

export function exportSession(
  session: Session,
  format: 'markdown' | 'jsonl',
): { filename: string; content: string } {
  const events = session.events();
  const stem = session.id;
  if (format === 'jsonl')
    return {
      filename: `${stem}.jsonl`,
      content: events.map((e) => JSON.stringify(e) + '\n').join(''),
    };
  return { filename: `${stem}.md`, content: markdownTranscript(session.meta, events) };
}

export class ImportError extends Error {
  override name = 'ImportError';
}

/** Parses an exported log: every line a valid event, seq 0, 1, 2, ... from a session_created. */
export function parseExportedLog(text: string, file: string): SessionEvent[] {
  const name = basename(file);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (!lines.length)
    throw new ImportError(`${name} is empty: export a session with --format jsonl`);
  const events: SessionEvent[] = [];
  for (const [i, line] of lines.entries()) {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new ImportError(`${name}: line ${i + 1} is not JSON (is this a jsonl export?)`);
    }
    const parsed = sessionEventSchema.safeParse(raw);
    if (!parsed.success)
      throw new ImportError(
        `${name}: line ${i + 1} is not a session event (${parsed.error.issues[0]?.message ?? 'invalid'})`,
      );
    const e = parsed.data as SessionEvent;
    if (e.seq !== i)
      throw new ImportError(
        `${name}: line ${i + 1} has seq ${e.seq}, expected ${i}: lines are missing or out of order`,
      );
    events.push(e);
  }
  if (events[0]!.type !== 'session_created')
    throw new ImportError(`${name}: the first event must be session_created`);
  return events;
}

/** The project an imported session is bound to: the user's choice, never the file's. */
export interface ImportTarget {
  project: string | null;
  root: string | null;
  /** A worktree made here for the branch the file names (its root is in it). */
  worktree?: SessionWorktree;
}

/**
 * The branch and base commit an exported worktree session worked on, as its log says: names to
 * look up in the repository the user picks, never a place (the file's paths are dropped).
 */
export function carriedWorktree(
  events: readonly SessionEvent[],
): { branch: string; base: string } | null {
  const first = events[0];
  if (first?.type !== 'session_created' || !first.worktree) return null;
  return { branch: first.worktree.branch, base: first.worktree.base };
}

/** The result a call left open in an imported log gets: it is history, never run. */
const IMPORTED_CALL =
  'This call came with an imported session and was not run here. Ask the user before doing it again.';

/**
 * An exported log (parseExportedLog) as a new session that carries no authority: its root, project
 * and worktree are the user's choice (`target`), whatever its session_created says; every call it left without a
 * result is closed unrun (a forged "allow" decision in the file runs nothing); and its permission
 * mode starts as ask, whatever mode changes it records.
 */
export async function importSession(
  sessions: SessionManager,
  events: SessionEvent[],
  target: ImportTarget,
): Promise<Session> {
  const first = events[0] as Extract<SessionEvent, { type: 'session_created' }>;
  let title = first.title;
  for (const e of events) if (e.type === 'session_renamed') title = e.title;
  const session = await sessions.createFrom({ title, ...target }, events);
  for (const call of unresolvedCalls(events))
    await session.append({
      type: 'tool_result',
      call_id: call.call_id,
      agent_id: call.agent_id,
      name: call.name,
      payload: errorPayload('imported', IMPORTED_CALL),
    });
  await session.append({ type: 'mode_change', mode: 'ask' });
  return session;
}
