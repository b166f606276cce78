import { readFileSync } from 'node:fs';

// The one reader of /proc/<pid>/stat and /proc/<pid>/status (Linux). The command name in stat is
// in parentheses and may itself hold spaces and ')', so fields are counted from the last ')'.

export interface ProcStat {
  pid: number;
  /** R, S, D, Z (zombie), X (dead), T, ... */
  state: string;
  ppid: number;
  pgid: number;
  /** Session id (setsid). */
  sid: number;
}

/** Parses the text of /proc/<pid>/stat; null when it is not one. */
export function parseProcStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(')');
  const open = text.indexOf(' (');
  if (close === -1 || open === -1) return null;
  const pid = Number(text.slice(0, open));
  const rest = text.slice(close + 2).split(' ');
  const [state, ppid, pgid, sid] = [rest[0], Number(rest[1]), Number(rest[2]), Number(rest[3])];
  if (!state || !Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isInteger(pgid))
    return null;
  return { pid, state, ppid, pgid, sid };
}

/** /proc/<pid>/stat, or null when the process is gone. */
export function readProcStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Exists and is not a zombie (killed, not yet reaped) or dead. */
export function isLiveProcess(pid: number): boolean {
  const st = readProcStat(pid);
  return st !== null && st.state !== 'Z' && st.state !== 'X';
}

/** Resident memory of one process in bytes (VmRSS), or 0 when it is gone. */
export function rssBytes(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
