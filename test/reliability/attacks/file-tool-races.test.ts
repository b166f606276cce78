import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { safeResolve } from '../../../electron/host/fs/safe-path';
import { ReadState } from '../../../electron/host/tools/read-state';
import { apiContext, makeFixture, runApi, type Fixture } from '../../unit/tools/harness';
import { countLeaks, makeSwapper, stopRacer, unswap, type Swapper } from './swap-racer';

// Issue #14, route 2: a process in the project swaps a directory (or a file) with a symlink to
// another project, atomically and over and over, while the file tools resolve a path and then
// open it. An open by name after the check follows the swap and reads or writes the other project
// (shown first, against a deliberately unprotected resolve-then-open); the real tools must never.

const SECRET = 'OTHER-PROJECT-SECRET-7f3a';
/** Attempts of the unprotected control before giving up on seeing it leak. */
const CONTROL_ATTEMPTS = 5000;
/** The control stops once it has leaked this often: the attack is shown to work. */
const CONTROL_LEAKS_ENOUGH = 3;
/** A file name only the other project has: a listing that shows it leaked. */
const LISTED_SECRET = 'other-project-only';
const READ_ATTEMPTS = 2000;
const LIST_ATTEMPTS = 400;
const EDIT_ATTEMPTS = 400;

let fx: Fixture;
let swapper: Swapper | null;
let racer: ChildProcess | undefined;

/** The other project's files, to prove nothing there was read into a result, created or changed. */
function outsideSnapshot(): string {
  return filesUnder(fx.outside)
    .map((f) => `${f}=${readFileSync(f, 'utf8')}`)
    .join('\n');
}

function filesUnder(d: string): string[] {
  return readdirSync(d, { withFileTypes: true })
    .sort((x, y) => (x.name < y.name ? -1 : 1))
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(join(d, e.name)) : e.isFile() ? [join(d, e.name)] : [],
    );
}

beforeAll(() => {
  fx = makeFixture();
  writeFileSync(join(fx.outside, 'secret.txt'), SECRET);
  mkdirSync(join(fx.outside, 'deep'));
  writeFileSync(join(fx.outside, 'deep', 'secret.txt'), SECRET);
  writeFileSync(join(fx.outside, 'deep', 'notes.txt'), SECRET);
  writeFileSync(join(fx.outside, 'deep', `${LISTED_SECRET}.txt`), SECRET);
  // Directory swap: sub (a real directory) <-> alt (a symlink to the other project). The swapped
  // directory is not the last one of the path, so refusing a symlink at the open does not help.
  mkdirSync(join(fx.root, 'sub', 'deep'), { recursive: true });
  writeFileSync(join(fx.root, 'sub', 'deep', 'secret.txt'), 'inside\n');
  writeFileSync(join(fx.root, 'sub', 'deep', 'notes.txt'), 'notes\n');
  symlinkSync('../outside', join(fx.root, 'alt'));
  // Last-component swap: file.txt (a regular file) <-> flink (a symlink to the secret).
  mkdirSync(join(fx.root, 'leaf'));
  writeFileSync(join(fx.root, 'leaf', 'file.txt'), 'inside\n');
  symlinkSync(join(fx.outside, 'secret.txt'), join(fx.root, 'leaf', 'flink'));
  const tools = join(fx.home, 'racer');
  mkdirSync(tools);
  swapper = makeSwapper(tools, join(fx.root, 'sub'), join(fx.root, 'alt'));
});

afterEach(async () => {
  if (racer) await stopRacer(racer);
  racer = undefined;
  restore('sub', 'alt');
  restore('leaf/file.txt', 'leaf/flink');
});

afterAll(() => fx.cleanup());

function race(a: string, b: string): void {
  racer = swapper!.start(join(fx.root, a), join(fx.root, b));
}

/** After the racer stopped (maybe mid-swap), puts each symlink back where it started. */
function restore(a: string, b: string): void {
  unswap(join(fx.root, a), join(fx.root, b));
}

describe.skipIf(process.platform !== 'linux')('file tools under a swapping racer', () => {
  it('the racer works: an unprotected resolve-then-open reads the other project', async (t) => {
    if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
    race('sub', 'alt');
    const { leaks, attempts } = await countLeaks(
      CONTROL_ATTEMPTS,
      CONTROL_LEAKS_ENOUGH,
      async () => {
        const r = safeResolve(fx.root, undefined, 'sub/deep/secret.txt');
        if (!r.ok) return false;
        // The old code: the checked path is opened again by name.
        const text = await readFile(r.path, 'utf8').catch(() => '');
        return text.includes(SECRET);
      },
    );
    console.log(`unprotected read: ${leaks} leaks in ${attempts} attempts (${swapper!.how})`);
    expect(leaks).toBeGreaterThan(0);
  });

  it('the racer works: an unprotected resolve-then-write lands in the other project', async (t) => {
    if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
    race('sub', 'alt');
    const { leaks, attempts } = await countLeaks(
      CONTROL_ATTEMPTS,
      CONTROL_LEAKS_ENOUGH,
      async () => {
        const r = safeResolve(fx.root, undefined, 'sub/deep/planted.txt');
        if (!r.ok) return false;
        await writeFile(r.path, 'written\n').catch(() => undefined);
        if (!existsSync(join(fx.outside, 'deep', 'planted.txt'))) return false;
        rmSync(join(fx.outside, 'deep', 'planted.txt'));
        return true;
      },
    );
    await stopRacer(racer!);
    console.log(`unprotected write: ${leaks} leaks in ${attempts} attempts`);
    expect(leaks).toBeGreaterThan(0);
  });

  it('the racer works: an unprotected resolve-then-readdir lists the other project', async (t) => {
    if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
    race('sub', 'alt');
    const { leaks, attempts } = await countLeaks(
      CONTROL_ATTEMPTS,
      CONTROL_LEAKS_ENOUGH,
      async () => {
        const r = safeResolve(fx.root, undefined, 'sub/deep');
        if (!r.ok) return false;
        const names = await readdir(r.path).catch(() => [] as string[]);
        return names.some((n) => n.startsWith(LISTED_SECRET));
      },
    );
    console.log(`unprotected readdir: ${leaks} leaks in ${attempts} attempts`);
    expect(leaks).toBeGreaterThan(0);
  });

  it('aider_list_dir_tool never lists the other project while a directory is swapped', async (t) => {
    if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
    race('sub', 'alt');
    const outcomes = new Map<string, number>();
    for (let i = 0; i < LIST_ATTEMPTS; i++) {
      const path = i % 2 ? 'sub/deep' : '.';
      const p = await runApi(fx.root, 'aider_list_dir_tool', { path });
      expect(JSON.stringify(p)).not.toContain(LISTED_SECRET);
      const key = p.kind === 'error' ? String(p.code) : p.kind;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    console.log('aider_list_dir_tool under race:', Object.fromEntries(outcomes));
  });

  for (const [what, a, b, path] of [
    ['a directory swapped with a symlink', 'sub', 'alt', 'sub/deep/secret.txt'],
    ['the file swapped with a symlink', 'leaf/file.txt', 'leaf/flink', 'leaf/file.txt'],
  ] as const) {
    it(`read_file never returns the other project's file (${what})`, async (t) => {
      if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
      const before = outsideSnapshot();
      race(a, b);
      const outcomes = new Map<string, number>();
      for (let i = 0; i < READ_ATTEMPTS; i++) {
        const p = await runApi(
          fx.root,
          'read_file',
          { path },
          apiContext(fx.root, new ReadState({ dedup: false })),
        );
        expect(JSON.stringify(p)).not.toContain(SECRET);
        const key = p.kind === 'error' ? String(p.code) : p.kind;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
      await stopRacer(racer!);
      console.log(`read_file under race (${what}):`, Object.fromEntries(outcomes));
      expect(outsideSnapshot()).toBe(before);
      // Every outcome is the inside file or a refusal, never anything else.
      for (const k of outcomes.keys())
        expect(['file', 'path_validation', 'path_changed', 'not_found']).toContain(k);
    });
  }

  for (const tool of ['file_edit_tool', 'aider_edit_block_tool'] as const) {
    for (const [what, a, b, file] of [
      ['a directory swapped with a symlink', 'sub', 'alt', 'sub/deep/notes.txt'],
      ['the file swapped with a symlink', 'leaf/file.txt', 'leaf/flink', 'leaf/file.txt'],
    ] as const) {
      it(`${tool} never reads or writes the other project (${what})`, async (t) => {
        if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
        const before = outsideSnapshot();
        race(a, b);
        const outcomes = new Map<string, number>();
        for (let i = 0; i < EDIT_ATTEMPTS; i++) {
          const args =
            tool === 'file_edit_tool'
              ? { file_path: file, old_string: '', new_string: `edit ${i}\n` }
              : {
                  content: `${file}\n\`\`\`\n<<<<<<< SEARCH\n=======\nedit ${i}\n>>>>>>> REPLACE\n\`\`\`\n`,
                };
          const p = await runApi(fx.root, tool, args);
          expect(JSON.stringify(p)).not.toContain(SECRET);
          const key = p.kind === 'error' ? String(p.code) : p.kind;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }
        await stopRacer(racer!);
        console.log(`${tool} under race (${what}):`, Object.fromEntries(outcomes));
        expect(outsideSnapshot()).toBe(before);
        // What the edits did write stayed inside: no secret in any file of the project.
        for (const f of filesUnder(fx.root)) expect(readFileSync(f, 'utf8')).not.toContain(SECRET);
      });
    }
  }
});
