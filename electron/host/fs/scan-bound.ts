// When one read_file call's scan must stop. The bound is work, not the clock alone: a second of
// this process's CPU since the call began, which is a newline scan of about 2 GiB on this kind of
// machine whatever else runs beside it. A wall-clock bound alone gave a loaded machine (load
// average 20 on 2 cores) a tenth of the scan, so a 1 GiB file took a dozen calls there and one on
// a quiet machine. Every read in the process shares the CPU it counts, so 20 reads at once of an
// endless file stop together after about a second of work in all; a wall bound several times
// longer still caps what a starved process makes the user wait.

/** CPU milliseconds of the process one call's scan may take (about 2 GiB of newlines). */
export const SCAN_CPU_MS = 1000;
/** Wall milliseconds one call's scan takes at most, however starved the process is. */
export const SCAN_WALL_MS = 5000;
/** The share of a full bound a phase gets when it must still run after the call's bound is spent. */
const GRACE_SHARE = 0.1;

export class ScanBound {
  private readonly cpu0 = process.cpuUsage();
  // process.hrtime, not performance.now(): the `performance` global loads perf_hooks (ten modules)
  // at its first use, in `mewbo tool read_file` for this alone (issue #26 part 4).
  private readonly wall0 = process.hrtime.bigint();

  /** A bound of `share` of the full one, starting now (a tail's own time after a long count). */
  constructor(private readonly share = 1) {}

  /** This bound while time is left, else a little time of its own for a phase that must still run. */
  orGrace(): ScanBound {
    return this.spent() ? new ScanBound(GRACE_SHARE) : this;
  }

  /** Whether `fraction` of this bound is spent. */
  spent(fraction = 1): boolean {
    const f = fraction * this.share;
    if (Number(process.hrtime.bigint() - this.wall0) / 1e6 > SCAN_WALL_MS * f) return true;
    const cpu = process.cpuUsage(this.cpu0);
    return (cpu.user + cpu.system) / 1000 > SCAN_CPU_MS * f;
  }
}
