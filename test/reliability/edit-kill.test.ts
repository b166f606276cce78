import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  openSync,
  closeSync,
  readdirSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, makeFixture, type Fixture } from '../unit/tools/harness';

// SIGKILL `mewbo tool file_edit_tool` at many moments while it edits a 200 MB file: afterwards the
// file is always exactly the old version or exactly the new one, never a torn mix.

/** Size of the edited file: big enough that reading, editing and writing take a while. */
const FILE_BYTES = 200 * 1024 * 1024;
const LINE = `${'x'.repeat(99)}\n`;
const MARK_A = 'MARKER-AAAAAAAA\n';
const MARK_B = 'MARKER-BBBBBBBB\n';
/** Kill points as fractions of one uninterrupted edit's duration. */
const KILL_AT = [0.05, 0.2, 0.4, 0.6, 0.8, 0.95];

let fx: Fixture;
let file: string;
const hashes: Record<'A' | 'B', string> = { A: '', B: '' };

function sha(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (d) => h.update(d))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });
}

/** Writes the file with `mark` in the middle, returning the content's hash. */
function writeVersion(path: string | null, mark: string): string {
  const h = createHash('sha256');
  const chunk = LINE.repeat(10_000);
  const half = Math.floor(FILE_BYTES / 2 / chunk.length);
  const fd = path ? openSync(path, 'w') : -1;
  const put = (s: string): void => {
    h.update(s);
    if (fd >= 0) writeSync(fd, s);
  };
  for (let i = 0; i < half; i++) put(chunk);
  put(mark);
  for (let i = 0; i < half; i++) put(chunk);
  if (fd >= 0) closeSync(fd);
  return h.digest('hex');
}

function edit(
  from: string,
  to: string,
  killAfterMs: number | null,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const args = join(fx.home, 'args.json');
  writeFileSync(args, JSON.stringify({ file_path: 'big.txt', old_string: from, new_string: to }));
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [CLI, 'tool', 'file_edit_tool', '--root', fx.root, '--args', `@${args}`],
    {
      env: { ...process.env, MEWBO_HOME: fx.home },
      stdio: 'ignore',
    },
  );
  const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, ms: Date.now() - started });
    });
  });
}

async function state(): Promise<'A' | 'B' | 'torn'> {
  const h = await sha(file);
  return h === hashes.A ? 'A' : h === hashes.B ? 'B' : 'torn';
}

beforeAll(() => {
  fx = makeFixture();
  file = join(fx.root, 'big.txt');
  hashes.A = writeVersion(file, MARK_A);
  hashes.B = writeVersion(null, MARK_B);
}, 120_000);

afterAll(() => fx.cleanup());

describe('an edit killed with SIGKILL', () => {
  it('leaves a 200 MB file either old or new, never torn', async () => {
    const full = await edit(MARK_A, MARK_B, null);
    expect(full.code).toBe(0);
    expect(await state()).toBe('B');
    let killed = 0;
    for (const fraction of KILL_AT) {
      const current = await state();
      expect(current).not.toBe('torn');
      const [from, to] = current === 'A' ? [MARK_A, MARK_B] : [MARK_B, MARK_A];
      const run = await edit(from, to, Math.round(full.ms * fraction));
      if (run.signal === 'SIGKILL') killed++;
      expect(await state(), `killed at ${fraction} of ${full.ms} ms`).not.toBe('torn');
    }
    expect(killed).toBeGreaterThan(0);
    // A later edit sweeps the temp files the killed writers left behind.
    const last = await state();
    const done = await edit(last === 'A' ? MARK_A : MARK_B, last === 'A' ? MARK_B : MARK_A, null);
    expect(done.code).toBe(0);
    expect(readdirSync(fx.root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 300_000);
});
