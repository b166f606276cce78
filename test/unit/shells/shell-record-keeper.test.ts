import { afterEach, describe, expect, test } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ShellRecordKeeper,
  type RecordTimer,
} from '../../../electron/host/shells/shell-record-keeper';
import type { ShellSession } from '../../../electron/host/shells/shell-session';
import { shellFixture, type ShellFixture } from './shell-fixture';

// The keeper rewrites a running shell's record (its whole retained output, fsynced) only after new
// output, and less often while output keeps streaming. A hand-driven timer stands in for time, so
// "nothing was armed while the shell was idle" is a fact about the keeper, not about a duration.

let f: ShellFixture;
afterEach(async () => {
  await f?.cleanup();
});

/** A timer whose clock only moves when the test says, and whose armed rewrites the test fires. */
function handTimer() {
  let now = 0;
  const armed: { ms: number; fn: () => void }[] = [];
  const timer: RecordTimer = {
    now: () => now,
    after(ms, fn) {
      const entry = { ms, fn };
      armed.push(entry);
      return () => {
        const i = armed.indexOf(entry);
        if (i >= 0) armed.splice(i, 1);
      };
    },
  };
  return {
    timer,
    armed,
    advance(ms: number) {
      now += ms;
    },
    /** Lets the armed rewrite's wait pass and runs it. */
    fire() {
      const entry = armed.shift()!;
      now += entry.ms;
      entry.fn();
    },
  };
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

async function catShell(): Promise<ShellSession> {
  f = shellFixture();
  const s = await f.service
    .forSession('s_keeper01')
    .start({ command: 'cat', cwd: f.root, root: f.root, config: f.config, tty: false });
  if ('kind' in s) throw new Error(`start refused: ${JSON.stringify(s)}`);
  return s;
}

describe('ShellRecordKeeper', () => {
  test('an idle shell is not rewritten; streaming output is rewritten less and less often, up to 5 s', async () => {
    const shell = await catShell();
    const clock = handTimer();
    const keeper = new ShellRecordKeeper(undefined, clock.timer);
    const dir = join(f.dir, 'kept');
    const file = join(dir, `${shell.id}.json`);
    const output = () => (JSON.parse(readFileSync(file, 'utf8')) as { output: string }).output;
    /** Prints `line` through the shell and returns the wait the keeper armed for it. */
    const print = async (line: string): Promise<number> => {
      shell.write(`${line}\n`);
      await until(() => clock.armed.length === 1);
      return clock.armed[0]!.ms;
    };

    keeper.keep(dir, shell);
    await keeper.flush();
    expect(output()).toBe('');
    const started = statSync(file).ino;

    expect(await print('one')).toBe(1_000);
    clock.fire();
    await keeper.flush();
    expect(output()).toBe('one\n');
    // Each write replaces the file (atomic rename): a new inode says a write happened.
    const first = statSync(file).ino;
    expect(first).not.toBe(started);

    // Idle: no output, so no rewrite is armed and the file stays the one written last.
    await keeper.flush();
    expect(clock.armed).toEqual([]);
    expect(statSync(file).ino).toBe(first);

    // Output keeps arriving right after each rewrite: the waits double, bounded at 5 s.
    const waits: number[] = [];
    for (const line of ['two', 'three', 'four', 'five']) {
      waits.push(await print(line));
      clock.fire();
    }
    expect(waits).toEqual([2_000, 4_000, 5_000, 5_000]);
    await keeper.flush();
    expect(output()).toBe('one\ntwo\nthree\nfour\nfive\n');

    // After a quiet spell as long as the wait, new output is kept within a second again.
    clock.advance(5_000);
    expect(await print('six')).toBe(1_000);

    // The shell's end is written at once, without waiting for the armed rewrite.
    await shell.terminate('kill', 1_000);
    await shell.whenExited;
    await keeper.flush();
    expect(clock.armed).toEqual([]);
    const record = JSON.parse(readFileSync(file, 'utf8')) as {
      info: { status: string };
      output: string;
    };
    expect(record.info.status).toBe('killed');
    expect(record.output).toBe('one\ntwo\nthree\nfour\nfive\nsix\n');
  });
});
