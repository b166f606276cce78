import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { lstatSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A process that swaps two paths atomically (renameat2 RENAME_EXCHANGE) as fast as it can, until
// killed: the racer of check-then-open attacks. Compiled from a few lines of C with gcc when there
// is one, else run through python3's ctypes. `null` when neither works or the kernel (or the
// filesystem) has no RENAME_EXCHANGE.

const C_SOURCE = `
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
int main(int argc, char **argv) {
  if (argc < 3) return 2;
  /* "probe": swap twice (back to the start) and report whether the kernel can. */
  long rounds = argc > 3 && strcmp(argv[3], "probe") == 0 ? 2 : -1;
  for (long i = 0; rounds < 0 || i < rounds; i++) {
    if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) {
      perror("renameat2");
      return 1;
    }
  }
  return 0;
}
`;

const PY_SOURCE = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
rounds = 2 if len(sys.argv) > 3 and sys.argv[3] == 'probe' else -1
i = 0
while rounds < 0 or i < rounds:
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.stderr.write('renameat2 errno %d\\n' % ctypes.get_errno())
        sys.exit(1)
    i += 1
`;

export interface Swapper {
  /** How the swap is done, for the test's name. */
  how: string;
  /** Starts swapping `a` and `b` until the returned process is killed. */
  start(a: string, b: string): ChildProcess;
}

function commandOf(dir: string): { how: string; argv: string[] } | null {
  const bin = join(dir, 'swap-racer');
  const c = join(dir, 'swap-racer.c');
  writeFileSync(c, C_SOURCE);
  try {
    execFileSync('gcc', ['-O2', '-o', bin, c], { stdio: 'ignore' });
    return { how: 'renameat2 RENAME_EXCHANGE (C)', argv: [bin] };
  } catch {
    // no compiler here: python's ctypes reaches the same syscall through libc
  }
  const py = join(dir, 'swap-racer.py');
  writeFileSync(py, PY_SOURCE);
  return { how: 'renameat2 RENAME_EXCHANGE (python ctypes)', argv: ['python3', py] };
}

/** A swapper built in `dir` and probed on `a`/`b` (which must both exist), or null. */
export function makeSwapper(dir: string, a: string, b: string): Swapper | null {
  const cmd = commandOf(dir);
  if (!cmd) return null;
  const [exe, ...pre] = cmd.argv;
  const probe = spawnSync(exe!, [...pre, a, b, 'probe'], { stdio: 'ignore' });
  if (probe.status !== 0) return null;
  return {
    how: cmd.how,
    start: (x, y) => spawn(exe!, [...pre, x, y], { stdio: 'ignore' }),
  };
}

/** Kills a racer and waits until it is gone (no swap happens after this resolves). */
export async function stopRacer(racer: ChildProcess): Promise<void> {
  if (racer.exitCode !== null || racer.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    racer.once('exit', () => resolve());
    racer.kill('SIGKILL');
  });
}

/** After the racer stopped (maybe mid-swap), puts the pair back: `real` not a symlink. */
export function unswap(real: string, link: string): void {
  if (!lstatSync(real).isSymbolicLink()) return;
  renameSync(real, `${real}.swap`);
  renameSync(link, real);
  renameSync(`${real}.swap`, link);
}

/**
 * A control's count: runs `attempt` (true when it leaked) while the racer runs, until it leaked
 * `enough` times or made `max` attempts.
 */
export async function countLeaks(
  max: number,
  enough: number,
  attempt: () => Promise<boolean>,
): Promise<{ leaks: number; attempts: number }> {
  let leaks = 0;
  let attempts = 0;
  while (attempts < max && leaks < enough) {
    attempts++;
    if (await attempt()) leaks++;
  }
  return { leaks, attempts };
}
