import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Holds two of V8's growths while a long-lived process starts, and lets them go afterwards
 * (returned function, which may be called more than once). Call it before the long-lived process
 * imports its modules: loading the host's module graph is most of start-up's work, and held only
 * after it, both had grown.
 * - The young generation stays at its initial size. Start-up allocations are mostly module code
 *   and service objects that all survive, so a nursery grown for them buys nothing, and an idle
 *   host kept its 8 MiB grown semi-spaces (issue #18: idle RSS 1.5x a bare server). Later work
 *   grows it as before. V8 reads the growth factor each time it would grow the space; 2 is its
 *   default.
 * - TurboFan stays off. Start-up made a few functions hot that never run hot again (Node's URL and
 *   path code resolving each import, zod building schemas), and compiling them brought the
 *   optimizing compiler's own code into memory, which an idle host then kept (#26). Functions
 *   that get hot later (a console's relay, an agent's turn) are optimized as before: V8 checks
 *   the flag at each tier-up decision.
 */
export function holdV8GrowthDuringStartup(): () => boolean {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--no-turbofan');
  let held = true;
  // Idempotent: start-up may be ended by whichever of several signs of work comes first. True
  // for the call that ended it.
  return () => {
    if (!held) return false;
    held = false;
    setFlagsFromString('--semi-space-growth-factor=2');
    setFlagsFromString('--turbofan');
    return true;
  };
}

/**
 * One full garbage collection, for a process whose start-up has ended with nothing to do. V8's
 * memory reducer gives start-up's garbage back once a process idles, but only after several
 * seconds without work, and on a loaded machine an idle `mewbo serve` with its page open was
 * still 3-4 MiB larger 30 s later in about half the runs (bench/cli-startup.bench.ts, #26).
 * Tens of milliseconds, once. Node has no gc() without --expose-gc on its command line: the flag
 * is set for one new context, which hands its gc function over, and cleared again, so no later
 * context has one.
 */
export function collectStartUpGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}
