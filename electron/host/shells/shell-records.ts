import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellInfoSchema, type ShellInfo } from '../../../shared/tools/shell-payload';
import { writeJsonAtomic } from '../store/atomic-json';

// What is left of a session's background shells: their last state and their retained output,
// one file each under the session's folder, kept while they run (shell-record-keeper.ts) and
// when they end. A restarted host has no processes but still shows each console's output, with
// the shell as it ended (exited, killed, or lost with a host that crashed), instead of an empty
// console saying "no shell".

export interface ShellRecord {
  info: ShellInfo;
  /** Absolute cursor of output[0] (older output had been evicted from the ring buffer). */
  start: number;
  output: string;
}

const FILE = /^(shell_\d+)\.json$/;

/** Replaces the shell's record atomically and durably (the app's one atomic writer). */
export function saveShellRecord(dir: string, record: ShellRecord): Promise<void> {
  return writeJsonAtomic(join(dir, `${record.info.shell_id}.json`), record, 0o600);
}

export function loadShellRecord(dir: string, shellId: string): ShellRecord | null {
  if (!FILE.test(`${shellId}.json`)) return null;
  try {
    const raw = JSON.parse(readFileSync(join(dir, `${shellId}.json`), 'utf8')) as ShellRecord;
    const info = shellInfoSchema.safeParse(raw.info);
    if (!info.success || typeof raw.output !== 'string' || typeof raw.start !== 'number')
      return null;
    // Still "running" on disk: the host died without stopping it (a clean stop records the
    // shell as killed by the shutdown), and the shell's launcher killed its tree with the host.
    const ended =
      info.data.status === 'running'
        ? { ...info.data, status: 'killed' as const, kill_reason: 'lost' as const }
        : info.data;
    return { info: ended, start: raw.start, output: raw.output };
  } catch {
    return null;
  }
}

/**
 * The recorded shells of a session, oldest first, but for those named in `skip`, whose files are
 * not read: a live shell's record holds up to a whole buffer of output (1,000,000 characters by
 * default), rewritten every 1-5 s while it prints, and a console asks for the list every two seconds while its
 * shell prints (#26 part 2: parsing it took host CPU from the stream it was printing).
 */
export function listShellRecords(
  dir: string,
  skip: ReadonlySet<string> = new Set(),
): ShellRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((n) => FILE.exec(n)?.[1])
    .filter((id): id is string => id !== undefined && !skip.has(id))
    .map((id) => loadShellRecord(dir, id))
    .filter((r): r is ShellRecord => r !== null)
    .sort((a, b) => a.info.started_at - b.info.started_at);
}

/** The number after the highest recorded shell id: new shells never reuse an old one's id. */
export function nextShellNumber(records: readonly ShellRecord[]): number {
  let max = 0;
  for (const r of records) max = Math.max(max, Number(r.info.shell_id.slice('shell_'.length)));
  return max + 1;
}
