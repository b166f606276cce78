import { setFlagsFromString } from 'node:v8';

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
export function holdV8GrowthDuringStartup(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--no-turbofan');
  let held = true;
  // Idempotent: start-up may be ended by whichever of several signs of work comes first.
  return () => {
    if (!held) return;
    held = false;
    setFlagsFromString('--semi-space-growth-factor=2');
    setFlagsFromString('--turbofan');
  };
}
