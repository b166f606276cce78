import { readdirSync, readFileSync } from 'node:fs';
import { readProcStat, type ProcStat } from '../system/proc-stat';
import { signalProcess } from '../system/process-group';

// The host's view of processes, from /proc. The launcher normally kills a shell's whole tree
// itself; these are the host's fallback (no launcher, or a launcher that was killed) and what
// tests use to prove nothing survived. Every shell's processes carry MEWBO_SHELL_TOKEN in their
// environment, which finds them even after they left the process group and the tree.

export const SHELL_TOKEN_VAR = 'MEWBO_SHELL_TOKEN';

export type ProcEntry = ProcStat;
const readStat = readProcStat;

function pids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/** Live (non-zombie) processes whose environment holds a token starting with `tokenPrefix`. */
export function processesWithToken(tokenPrefix: string): number[] {
  const found: number[] = [];
  for (const pid of pids()) {
    if (pid === process.pid || !tokenOf(pid)?.startsWith(tokenPrefix)) continue;
    const stat = readStat(pid);
    if (stat && stat.state !== 'Z') found.push(pid);
  }
  return found;
}

/** The shell token in a process's environment, or null (gone, not ours to read, or none). */
export function tokenOf(pid: number): string | null {
  let env: string;
  try {
    env = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return null;
  }
  const entry = env.split('\0').find((e) => e.startsWith(`${SHELL_TOKEN_VAR}=`));
  return entry ? entry.slice(SHELL_TOKEN_VAR.length + 1) : null;
}

/** Descendants of `root` (not itself), live ones only. */
export function descendantsOf(root: number): number[] {
  const entries = pids()
    .map(readStat)
    .filter((e): e is ProcEntry => e !== null);
  const known = new Set([root]);
  const out: number[] = [];
  for (let changed = true; changed;) {
    changed = false;
    for (const e of entries) {
      if (!known.has(e.pid) && known.has(e.ppid)) {
        known.add(e.pid);
        if (e.state !== 'Z') out.push(e.pid);
        changed = true;
      }
    }
  }
  return out;
}

/** Already gone (ESRCH) or not ours to signal (EPERM): nothing more to do either way. */
export function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  signalProcess(pid, signal);
}

/** SIGKILLs every process carrying the token, repeating until none is left (bounded). */
export function killByToken(tokenPrefix: string, rounds = 20): number {
  let killed = 0;
  for (let i = 0; i < rounds; i++) {
    const left = processesWithToken(tokenPrefix);
    if (left.length === 0) break;
    for (const pid of left) signalQuietly(pid, 'SIGKILL');
    killed += left.length;
  }
  return killed;
}
