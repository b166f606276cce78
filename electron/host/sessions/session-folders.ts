import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonOr, writeJsonAtomic } from '../store/atomic-json';
import { scanLog } from '../store/log-recovery';
import type { SessionMeta } from './session';

// The folders under sessions/: one per session, `events.jsonl` (the truth) and `meta.json` (the
// index entry, rebuilt from the log when it is missing). A folder a person put there by hand (a
// copied session, a restored backup, a folder named anything) is adopted at start: given a
// session id if its name is not one and a meta.json from its log, so it is listed like the rest.

export const SESSION_ID_PATTERN = /^s_[a-z0-9]{6,40}$/;
export const LOG_FILE = 'events.jsonl';
export const META_FILE = 'meta.json';

export function newSessionId(): string {
  return `s_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

/** Adopts hand-placed session folders under `dir`; returns the ids adopted. */
export async function adoptSessionFolders(
  dir: string,
  warn: (line: string) => void = (l) => console.warn(l),
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const adopted: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const folder = join(dir, name);
    const hasLog = await stat(join(folder, LOG_FILE)).then(
      (s) => s.isFile(),
      // Stryker disable next-line ArrowFunction: undefined and false both mean "no log"
      () => false,
    );
    if (!hasLog) continue;
    const named = SESSION_ID_PATTERN.test(name);
    // Stryker disable next-line ArrowFunction: undefined and null are both "no meta"
    const meta = await readJsonOr<unknown>(join(folder, META_FILE), null).catch(() => null);
    if (named && isMeta(meta)) continue;
    try {
      const id = named ? name : newSessionId();
      const rebuilt = await metaFromLog(id, join(folder, LOG_FILE));
      let target = folder;
      // Stryker disable next-line ConditionalExpression: a named folder renamed to its own name stays
      if (!named) {
        target = join(dir, id);
        await rename(folder, target);
      }
      await writeJsonAtomic(join(target, META_FILE), rebuilt);
      adopted.push(id);
      warn(
        named
          ? `sessions: ${name} had no readable meta.json; rebuilt it from its log`
          : `sessions: adopted the folder ${name} as session ${id} (${target})`,
      );
    } catch (err) {
      warn(`sessions: could not adopt ${folder}: ${(err as Error).message}`);
    }
  }
  return adopted;
}

function isMeta(v: unknown): v is SessionMeta {
  const m = v as Partial<SessionMeta> | null;
  return (
    !!m &&
    typeof m.id === 'string' &&
    typeof m.title === 'string' &&
    typeof m.created_at === 'number'
  );
}

/** A meta.json from what the log says: its first session_created and its last rename. */
async function metaFromLog(id: string, logFile: string): Promise<SessionMeta> {
  const { events } = scanLog(await readFile(logFile));
  const created = events.find((e) => e.type === 'session_created');
  let title = created?.type === 'session_created' ? created.title : '';
  for (const e of events) if (e.type === 'session_renamed') title = e.title;
  return {
    id,
    title: title || 'Recovered session',
    project: created?.type === 'session_created' ? created.project : null,
    root: created?.type === 'session_created' ? created.root : null,
    created_at: events[0]?.ts ?? (await stat(logFile)).mtimeMs,
    event_count: (events.at(-1)?.seq ?? -1) + 1,
  };
}
