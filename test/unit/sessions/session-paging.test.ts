import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionManager } from '../../../electron/host/sessions/session-manager';
import { INDEX_EVERY, indexFileFor } from '../../../electron/host/store/event-index';
import { SnapshotBuilder } from '../../../electron/host/store/snapshot-builder';
import type { SessionEvent, SessionEventBody } from '../../../shared/protocol/events';
import { tempDir } from '../../helpers/temp';

// Paged session reads through the public SessionManager over real log files: every event reaches
// a client exactly once and in order whatever the page sizes, the snapshot equals a fold of the
// whole log, and a stored index is used (not rebuilt) while it matches its log.

let t: ReturnType<typeof tempDir>;
afterEach(() => t?.cleanup());

const text = fc.string({
  unit: fc.constantFrom('a', 'é', '\n', '"', '\\', '😀', ' ', '}'),
  maxLength: 300,
});
const body: fc.Arbitrary<SessionEventBody> = fc.oneof(
  {
    weight: 6,
    arbitrary: text.map((x) => ({ type: 'user_message' as const, text: x, message_id: 'm' })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('ask', 'auto', 'plan', 'accept-edits')
      .map((mode) => ({ type: 'mode_change' as const, mode: mode as 'ask' })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('running', 'idle', 'waiting')
      .map((state) => ({ type: 'run_state' as const, state: state as 'idle' })),
  },
  {
    weight: 1,
    arbitrary: text.map((label) => ({
      type: 'todos' as const,
      items: [{ label: label.slice(0, 200), status: 'pending' as const }],
      source: 'update_todos',
      agent_id: 'root',
    })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 5 }).map((q) => ({
      type: 'question' as const,
      question_id: `q${q}`,
      call_id: `c${q}`,
      questions: [],
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0, max: 5 })
      .map((q) => ({ type: 'question_expired' as const, question_id: `q${q}` })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 3 }).map((n) => ({
      type: 'shell_started' as const,
      shell_id: `sh${n}`,
      command: 'ls',
      cwd: '/',
    })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 3 }).map((n) => ({
      type: 'shell_exited' as const,
      shell_id: `sh${n}`,
      exit_code: 0,
      signal: null,
    })),
  },
  { weight: 1, arbitrary: text.map((title) => ({ type: 'session_renamed' as const, title })) },
  // A tool call whose args hold a "seq" key of their own: the index must not take it for the event's.
  {
    weight: 1,
    arbitrary: fc.nat().map((n) => ({
      type: 'tool_call' as const,
      call_id: 'c',
      agent_id: 'root',
      name: 'x',
      args: { seq: n, ts: 1 },
    })),
  },
);

let ids = 0;
/** Writes a log the way the store does (one JSON line per event, seq and ts last) and its meta. */
function seed(
  dir: string,
  bodies: SessionEventBody[],
): { id: string; file: string; events: SessionEvent[] } {
  const id = `s_page${(ids++).toString().padStart(4, '0')}`;
  const folder = join(dir, id);
  mkdirSync(folder, { recursive: true });
  const events = bodies.map((b, seq) => ({ ...b, seq, ts: 1000 + seq }) as SessionEvent);
  const file = join(folder, 'events.jsonl');
  writeFileSync(file, events.map((e) => JSON.stringify(e) + '\n').join(''));
  writeFileSync(
    join(folder, 'meta.json'),
    JSON.stringify({ id, title: 'seeded', project: null, root: null, created_at: 1 }),
  );
  return { id, file, events };
}

/** `n` user messages, m0 to m{n-1}. */
function messages(n: number): SessionEventBody[] {
  return Array.from({ length: n }, (_, i) => ({
    type: 'user_message',
    text: `m${i}`,
    message_id: `m${i}`,
  }));
}

function fold(events: SessionEvent[]) {
  const b = new SnapshotBuilder();
  for (const e of events) b.apply(e);
  return b.snapshot();
}

/** The newest window, then older pages until the first event, as a client scrolling up reads them. */
async function readAllBackwards(m: SessionManager, id: string, window: number, pageSize: number) {
  const view = await m.view(id, window);
  let events = view.events;
  let start = view.start;
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => start + i));
  while (start > 0) {
    const before = start;
    start = Math.max(0, before - pageSize);
    const page = await m.page(id, start, before);
    events = [...page, ...events];
  }
  return { view, events };
}

describe('paged session reads', () => {
  it('no event is lost, duplicated or reordered across pages; the snapshot equals a fold of the log (random logs, page sizes, growth)', async () => {
    t = tempDir();
    const dir = t.dir;
    await fc.assert(
      fc.asyncProperty(
        fc.array(body, { minLength: 0, maxLength: INDEX_EVERY * 3 + 7 }),
        fc.array(body, { maxLength: INDEX_EVERY + 3 }),
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 1, max: 700 }),
        fc.boolean(),
        fc.boolean(),
        async (bodies, more, window, pageSize, tailFirst, torn) => {
          const s = seed(dir, bodies);
          // A kill mid-write leaves half a line: it is not an event (yet) for any reader.
          if (torn) appendFileSync(s.file, '{"type":"user_message","text":"half');
          // 1. A log with no index (written before indexes existed): read, then indexed. Either
          //    read from its end with the snapshot on the topic, or scanned before the answer.
          const m1 = new SessionManager(dir, { tailFirstBytes: tailFirst ? 0 : undefined });
          const view = await m1.view(s.id, window);
          expect(view.events).toEqual(s.events.slice(Math.max(0, s.events.length - window)));
          expect(view.next).toBe(s.events.length);
          const topic: unknown[] = [];
          const sub = await m1.watch(s.id, view.next, (x) => topic.push(x));
          const snapshot = { ...fold(s.events), seq: s.events.length };
          expect(topic).toEqual([{ type: 'session_snapshot', snapshot }]);
          await sub.dispose();
          if (tailFirst && (s.events.length > 0 || torn)) expect(view.snapshot).toBeNull();
          else expect(view.snapshot).toEqual(snapshot);
          const first = await readAllBackwards(m1, s.id, window, pageSize);
          expect(first.events).toEqual(s.events);
          await m1.dispose();
          if (torn) writeFileSync(s.file, readFileSync(s.file, 'utf8').replace(/[^\n]*$/, ''));
          expect(existsSync(indexFileFor(s.file))).toBe(true);

          // 2. The log grew after its index was written (another host run appended).
          const grown = more.map(
            (b, i) => ({ ...b, seq: s.events.length + i, ts: 5000 + i }) as SessionEvent,
          );
          appendFileSync(s.file, grown.map((e) => JSON.stringify(e) + '\n').join(''));
          const all = [...s.events, ...grown];
          const m2 = new SessionManager(dir);
          const second = await readAllBackwards(m2, s.id, window, pageSize);
          expect(second.events).toEqual(all);
          expect(second.view.snapshot).toEqual({ ...fold(all), seq: all.length });

          // 3. Loaded (the agent's path): the same window and snapshot from memory.
          await m2.get(s.id);
          const loaded = await readAllBackwards(m2, s.id, window, pageSize);
          expect(loaded.events).toEqual(all);
          expect(loaded.view.snapshot).toEqual(second.view.snapshot);
          await m2.dispose();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a stored index is used while it matches its log: the history is not read again', async () => {
    t = tempDir();
    const bodies: SessionEventBody[] = [
      { type: 'session_created', title: 'from the index', project: null, root: null },
      { type: 'mode_change', mode: 'auto' },
      ...messages(INDEX_EVERY * 2),
    ];
    const s = seed(t.dir, bodies);
    const m1 = new SessionManager(t.dir);
    await m1.view(s.id, 10);
    await m1.dispose();
    // Blank the early lines in place (same length, newlines kept): a rescan would lose the title
    // and the mode; reading through the index never touches those bytes.
    const buf = readFileSync(s.file);
    const cut = buf.indexOf('m5"');
    for (let i = 0; i < cut; i++) if (buf[i] !== 0x0a) buf[i] = 0x20;
    writeFileSync(s.file, buf);
    const m2 = new SessionManager(t.dir);
    const view = await m2.view(s.id, 10);
    expect(view.snapshot?.title).toBe('from the index');
    expect(view.snapshot?.mode).toBe('auto');
    expect(view.events.map((e) => e.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => bodies.length - 10 + i),
    );
    await m2.dispose();

    // Control: with the index gone, the same damaged log is rescanned and the early state is lost.
    writeFileSync(indexFileFor(s.file), '{}');
    const m3 = new SessionManager(t.dir);
    const rescanned = await m3.view(s.id, 10);
    expect(rescanned.snapshot?.mode).toBeNull();
    await m3.dispose();
  });

  it('an index that no longer matches its log (the log was cut shorter) is rebuilt', async () => {
    t = tempDir();
    const bodies = messages(INDEX_EVERY * 2 + 5);
    const s = seed(t.dir, bodies);
    const m1 = new SessionManager(t.dir);
    await m1.view(s.id, 10);
    await m1.dispose();
    const keep = s.events.slice(0, INDEX_EVERY + 3);
    writeFileSync(s.file, keep.map((e) => JSON.stringify(e) + '\n').join(''));
    const m2 = new SessionManager(t.dir);
    const { events } = await readAllBackwards(m2, s.id, 50, 100);
    expect(events).toEqual(keep);
    await m2.dispose();
  });

  it('a topic subscriber of a session not loaded gets the replay, then the events of the run that loads it, with no gap or duplicate', async () => {
    t = tempDir();
    const s = seed(t.dir, messages(300));
    const m = new SessionManager(t.dir);
    const seen: number[] = [];
    const sub = await m.watch(s.id, 290, (e) => {
      if ('seq' in e) seen.push(e.seq);
    });
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => 290 + i));
    const session = await m.get(s.id);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        session.append({ type: 'user_message', text: `n${i}`, message_id: `n${i}` }),
      ),
    );
    await sub.dispose();
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => 290 + i));
    await m.dispose();
  });

  it('a damaged log not loaded still opens: its unreadable line is skipped and reported with the session', async () => {
    t = tempDir();
    const s = seed(t.dir, messages(40));
    const lines = readFileSync(s.file, 'utf8').split('\n');
    lines[10] = '{"type":"user_message","text":garbage';
    writeFileSync(s.file, lines.join('\n'));
    const m = new SessionManager(t.dir);
    const view = await m.view(s.id, 100);
    expect(view.events.map((e) => e.seq)).toEqual(
      s.events.map((e) => e.seq).filter((q) => q !== 10),
    );
    expect(view.session.notice).toMatch(
      /^1 event could not be read from .*events\.jsonl; unreadable line 11/,
    );
    await m.dispose();
  });
});
