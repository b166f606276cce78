// The one way the host ends a child and everything it started: a signal to its process group
// (kill(-pgid)), not to its pid alone, which would leave `sh -c "a | b"`'s children or a dev
// server's workers running. The child must lead its group (spawn `detached`, setsid or forkpty).

/** Signals the process group `pgid`; false when no process of it is left (or not ours). */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | number): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false; // -0 and -1 would signal far more
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Signals one process; false when it is gone (ESRCH) or not ours to signal (EPERM). */
export function signalProcess(pid: number, signal: NodeJS.Signals | number): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}
