import {
  closeSync,
  existsSync,
  openSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyRestore, type RestorePlan } from '../../../electron/host/checkpoints/restore';
import { resolveInsideRoot } from '../../../electron/host/fs/safe-path';
import { makeFixture, type Fixture } from '../../unit/tools/harness';
import { countLeaks, makeSwapper, stopRacer, unswap, type Swapper } from './swap-racer';

// A rewind puts files back, deletes the ones the agent made, makes folders and symlinks and sets
// modes, all inside the project. A process in the project (the agent's own background shell)
// swaps a folder with a symlink to another project, atomically and over and over, while the
// rewind runs: every one of those steps done by name after a check would land in the other
// project (shown first for a delete, against a deliberately unprotected check-then-unlink).

/** Rewinds tried at least; more until a few got through the racer (each step must run). */
const ATTEMPTS = 400;
const ENOUGH_RESTORED = 3;
const MAX_ATTEMPTS = 4000;
const CONTROL_ATTEMPTS = 5000;

let fx: Fixture;
let swapper: Swapper | null;
let racer: ChildProcess | undefined;

const outsideDeep = () => join(fx.outside, 'deep');
const file = (path: string, mode: string) => ({ path, mode, data: Buffer.from('restored\n') });
const link = (path: string, to: string) => ({ path, mode: '120000', data: Buffer.from(to) });

/** Every entry under the other project with its kind, content and mode. */
function outsideSnapshot(): string {
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((name) => {
        const p = join(d, name);
        const st = lstatSync(p);
        if (st.isDirectory()) return [`${p}/`, ...walk(p)];
        const body = st.isFile() ? readFileSync(p, 'utf8') : 'link';
        return [`${p} ${(st.mode & 0o777).toString(8)} ${body}`];
      });
  return walk(fx.outside).join('\n');
}

beforeAll(() => {
  fx = makeFixture();
  mkdirSync(outsideDeep());
  writeFileSync(join(outsideDeep(), 'gone.txt'), 'other project\n');
  writeFileSync(join(outsideDeep(), 'victim.txt'), 'other project\n', { mode: 0o644 });
  mkdirSync(join(fx.root, 'sub', 'deep'), { recursive: true });
  writeFileSync(join(fx.root, 'sub', 'deep', 'gone.txt'), 'made by the agent\n');
  writeFileSync(join(fx.root, 'sub', 'deep', 'victim.txt'), 'edited by the agent\n');
  symlinkSync('../outside', join(fx.root, 'alt'));
  const tools = join(fx.home, 'racer');
  mkdirSync(tools);
  swapper = makeSwapper(tools, join(fx.root, 'sub'), join(fx.root, 'alt'));
});

afterEach(async () => {
  if (racer) await stopRacer(racer);
  racer = undefined;
  // The racer may have stopped mid-swap: put the real folder back at sub.
  unswap(join(fx.root, 'sub'), join(fx.root, 'alt'));
});

afterAll(() => fx.cleanup());

describe.skipIf(process.platform !== 'linux')('a rewind under a swapping racer', () => {
  it('the racer works: an unprotected check-then-unlink deletes in the other project', async (t) => {
    if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
    const bait = join(outsideDeep(), 'bait.txt');
    racer = swapper!.start(join(fx.root, 'sub'), join(fx.root, 'alt'));
    const { leaks } = await countLeaks(CONTROL_ATTEMPTS, 3, async () => {
      if (!existsSync(bait)) writeFileSync(bait, 'x');
      let path: string;
      try {
        path = join(resolveInsideRoot(fx.root, 'sub/deep', { label: 'restored path' }), 'bait.txt');
      } catch {
        return false;
      }
      await unlink(path).catch(() => undefined);
      return !existsSync(bait);
    });
    await stopRacer(racer!);
    console.log(`unprotected rewind delete: ${leaks} leaks`);
    expect(leaks).toBeGreaterThan(0);
  });

  // One step per plan: a rewind of many steps would almost never get past its checks while the
  // racer runs, and each step must be seen to run (some rewinds restored) for the test to count.
  const steps: [string, RestorePlan][] = [
    ['a delete', { deletes: ['sub/deep/gone.txt'], writes: [] }],
    ['a new folder', { deletes: [], writes: [file('sub/deep/made/new.txt', '100644')] }],
    ['a symlink', { deletes: [], writes: [link('sub/deep/link', 'victim.txt')] }],
    ['a file and its mode', { deletes: [], writes: [file('sub/deep/victim.txt', '100755')] }],
  ];
  for (const [what, plan] of steps) {
    it(`${what} stays inside the project`, async (t) => {
      if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
      const before = outsideSnapshot();
      // The test's own writes go through a descriptor held from before the race.
      const deep = openSync(join(fx.root, 'sub', 'deep'), 'r');
      racer = swapper!.start(join(fx.root, 'sub'), join(fx.root, 'alt'));
      const outcomes = new Map<string, number>();
      const restored = () => outcomes.get('restored') ?? 0;
      for (let i = 0; i < MAX_ATTEMPTS && (i < ATTEMPTS || restored() < ENOUGH_RESTORED); i++) {
        // The agent made it again: there is something to delete in the project each time.
        await writeFile(`/proc/self/fd/${deep}/gone.txt`, 'again\n');
        const outcome = await applyRestore(fx.root, plan).then(
          () => 'restored',
          () => 'refused',
        );
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
      await stopRacer(racer!);
      racer = undefined;
      closeSync(deep);
      console.log(`rewind of ${what} under race:`, Object.fromEntries(outcomes));
      expect(outsideSnapshot()).toBe(before);
      expect(restored()).toBeGreaterThan(0);
    }, 180_000);
  }

  it('without the racer the same rewind restores everything in place', async () => {
    await applyRestore(fx.root, {
      deletes: ['sub/deep/gone.txt'],
      writes: [{ path: 'sub/deep/victim.txt', mode: '100755', data: Buffer.from('restored\n') }],
    });
    const victim = join(fx.root, 'sub', 'deep', 'victim.txt');
    expect(readFileSync(victim, 'utf8')).toBe('restored\n');
    expect(statSync(victim).mode & 0o777).toBe(0o755);
    expect(existsSync(join(fx.root, 'sub', 'deep', 'gone.txt'))).toBe(false);
  });
});
