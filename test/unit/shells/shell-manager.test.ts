import { afterEach, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processesWithToken } from '../../../electron/host/shells/process-tree';
import type { ShellManager, StartRequest } from '../../../electron/host/shells/shell-manager';
import type { ShellSession } from '../../../electron/host/shells/shell-session';
import { shellFixture, type ShellFixture } from './shell-fixture';

let f: ShellFixture;
afterEach(async () => {
  await f?.cleanup();
});

function setup(raw: Record<string, unknown> = {}): ShellManager {
  f = shellFixture(raw);
  return f.service.forSession('s_manager01');
}

function req(command: string, extra: Partial<StartRequest> = {}): StartRequest {
  return { command, cwd: f.root, root: f.root, config: f.config, tty: false, ...extra };
}

async function start(
  m: ShellManager,
  command: string,
  extra: Partial<StartRequest> = {},
): Promise<ShellSession> {
  const s = await m.start(req(command, extra));
  if ('kind' in s) throw new Error(`start refused: ${JSON.stringify(s)}`);
  return s;
}

function pgrepMarker(marker: string): string {
  try {
    return execFileSync('pgrep', ['-af', marker], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** Resolves once `done()` holds: the thing awaited is a state of the world, not a duration. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

describe('ShellManager', () => {
  test('a foreground command returns merged stdout and stderr with its exit code', async () => {
    const m = setup();
    const r = await m.run({ ...req('echo out; echo err >&2; exit 7'), timeoutMs: 10_000 });
    if ('kind' in r) throw new Error(JSON.stringify(r));
    expect(r.result.text).toBe('out\nerr\n');
    expect(r.info.exit_code).toBe(7);
    expect(r.timedOut).toBe(false);
  });

  test('a foreground command past its timeout is killed with its whole group', async () => {
    const m = setup();
    const r = await m.run({
      ...req('echo begin; sleep 600 & sleep 601; echo never'),
      // Long enough that a loaded machine still runs `echo begin` before the timeout fires.
      timeoutMs: 2_000,
    });
    if ('kind' in r) throw new Error(JSON.stringify(r));
    expect(r.timedOut).toBe(true);
    expect(r.info.status).toBe('killed');
    expect(r.result.text).toBe('begin\n');
    expect(pgrepMarker('sleep 60[01]')).toBe('');
  });

  test('processes a foreground command leaves behind are killed when it exits', async () => {
    const m = setup();
    const r = await m.run({
      ...req('setsid sleep 602 & (sleep 603 &); echo done'),
      timeoutMs: 10_000,
    });
    if ('kind' in r) throw new Error(JSON.stringify(r));
    expect(r.result.text).toBe('done\n');
    expect(pgrepMarker('sleep 60[23]')).toBe('');
  });

  test('a foreground read of stdin, a /dev/tty password prompt and a pager return at once', async () => {
    const m = setup();
    const commands = [
      'read -r -p "Password: " pw; echo "rc=$?"',
      `python3 -c "import getpass; getpass.getpass('Password: ')"; echo "rc=$?"`,
      'printf "a\\nb\\n" > f.txt; less f.txt; echo "rc=$?"',
      'git init -q repo && cd repo && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m one && git -c core.pager=less log --oneline | cat; echo "rc=$?"',
    ];
    for (const tty of [false, true]) {
      for (const command of commands) {
        const r = await m.run({ ...req(command, { tty }), timeoutMs: 20_000 });
        if ('kind' in r) throw new Error(JSON.stringify(r));
        expect(r.timedOut, `${command} (tty ${tty}) hung until the timeout`).toBe(false);
        expect(r.result.text).toMatch(/rc=\d+/);
      }
    }
  });

  test('tty: true gives the command a terminal', async () => {
    const m = setup();
    const r = await m.run({
      ...req('[ -t 1 ] && echo is-a-tty || echo not-a-tty', { tty: true }),
      timeoutMs: 10_000,
    });
    if ('kind' in r) throw new Error(JSON.stringify(r));
    expect(r.result.text).toContain('is-a-tty');
    const p = await m.run({
      ...req('[ -t 1 ] && echo is-a-tty || echo not-a-tty'),
      timeoutMs: 10_000,
    });
    if ('kind' in p) throw new Error(JSON.stringify(p));
    expect(p.result.text).toBe('not-a-tty\n');
  });

  test('background reads are incremental by cursor and status comes from the process', async () => {
    const m = setup();
    const s = await start(m, 'echo one; read -r go; echo two; exit 4');
    const first = await m.read(s.id, { waitMs: 5000 });
    if (first.kind !== 'shell_session') throw new Error(JSON.stringify(first));
    expect(first.output).toBe('one\n');
    expect(first.status).toBe('running');
    expect(first.exit_code).toBeNull();
    const empty = await m.read(s.id, { cursor: first.cursor });
    if (empty.kind !== 'shell_session') throw new Error(JSON.stringify(empty));
    expect(empty.output).toBe('');
    expect(empty.status).toBe('running');
    m.input(s.id, 'go\n');
    await s.whenExited;
    const second = await m.read(s.id, { cursor: first.cursor });
    if (second.kind !== 'shell_session') throw new Error(JSON.stringify(second));
    expect(second.output).toBe('two\n');
    expect(second.status).toBe('exited');
    expect(second.exit_code).toBe(4);
    expect(second.cursor).toBe(first.cursor + 4);
  });

  test('output evicted before it was read is reported as missed_characters', async () => {
    const m = setup({ shells: { buffer_chars: 1024 } });
    const s = await start(m, 'for i in $(seq 1 400); do echo "line $i"; done');
    await s.whenExited;
    const r = await m.read(s.id, { cursor: 0 });
    if (r.kind !== 'shell_session') throw new Error(JSON.stringify(r));
    expect(r.cursor).toBeGreaterThan(1024);
    expect(r.missed_characters).toBe(r.cursor - 1024);
    expect(r.output.length).toBe(1024);
    expect(r.output.endsWith('line 400\n')).toBe(true);
  });

  test('missed_characters is reported on the first read after eviction even without a cursor, and only once', async () => {
    const m = setup({ shells: { buffer_chars: 1024 } });
    const s = await start(m, 'for i in $(seq 1 400); do echo "line $i"; done');
    await s.whenExited;
    const r = await m.read(s.id, {});
    if (r.kind !== 'shell_session') throw new Error(JSON.stringify(r));
    expect(r.missed_characters).toBe(r.cursor - 1024);
    const again = await m.read(s.id, {});
    if (again.kind !== 'shell_session') throw new Error(JSON.stringify(again));
    expect(again.missed_characters).toBeUndefined();
  });

  test('a filtered read leaves the cursor where an unfiltered read would', async () => {
    const m = setup();
    const s = await start(m, 'printf "alpha 1\\nbeta 2\\nalpha 3\\ngamma\\n"');
    await s.whenExited;
    const filtered = await m.read(s.id, { filter: /alpha/, filterSource: 'alpha' });
    const plain = await m.read(s.id, {});
    if (filtered.kind !== 'shell_session' || plain.kind !== 'shell_session')
      throw new Error('read failed');
    expect(filtered.output).toBe('alpha 1\nalpha 3\n');
    expect(plain.output).toBe('alpha 1\nbeta 2\nalpha 3\ngamma\n');
    expect(filtered.cursor).toBe(plain.cursor);
  });

  test('wait_ms waits for new output after the cursor, and a filtered wait for a matching line', async () => {
    const m = setup();
    // Each step waits for a line of input, not for the clock: a loaded machine cannot make the
    // first read see more than `start`, nor the filtered wait find READY before it is waiting.
    const s = await start(
      m,
      'echo start; read -r a; echo noise; read -r b; echo "READY on http://localhost:5173/"; sleep 30',
    );
    const first = await m.read(s.id, { waitMs: 5000 });
    if (first.kind !== 'shell_session') throw new Error(JSON.stringify(first));
    expect(first.output).toBe('start\n');
    const waiting = m.read(s.id, {
      cursor: first.cursor,
      waitMs: 10_000,
      filter: /READY/,
      filterSource: 'READY',
    });
    m.input(s.id, 'a\nb\n');
    const next = await waiting;
    if (next.kind !== 'shell_session') throw new Error(JSON.stringify(next));
    expect(next.output).toBe('READY on http://localhost:5173/\n');
    expect(next.urls).toEqual(['http://localhost:5173/']);
  });

  test("a filtered wait keeps the caller's cursor: a match already after it returns at once, and the cursor is where an unfiltered read leaves it", async () => {
    const m = setup();
    const s = await start(m, 'echo start; echo noise; echo READY; sleep 60');
    const first = await m.read(s.id, { waitMs: 5000, filter: /READY/ });
    if (first.kind !== 'shell_session') throw new Error(JSON.stringify(first));
    expect(first.output).toBe('READY\n');
    // From cursor 0, READY is already there: waiting from the end instead would hang for 10 min.
    const again = await m.read(s.id, { cursor: 0, waitMs: 600_000, filter: /READY/ });
    const plain = await m.read(s.id, { cursor: 0 });
    if (again.kind !== 'shell_session' || plain.kind !== 'shell_session')
      throw new Error('read failed');
    expect(again.output).toBe('READY\n');
    expect(plain.output).toBe('start\nnoise\nREADY\n');
    expect(again.cursor).toBe(plain.cursor);
  }, 30_000);

  test('write sends input and returns the reply in the same call', async () => {
    const m = setup();
    const s = await start(m, 'while read -r line; do echo "got:$line"; done');
    const r = await m.write(s.id, { input: 'hello', newline: true });
    if (r.kind !== 'shell_session') throw new Error(JSON.stringify(r));
    expect(r.output).toBe('got:hello\n');
    const again = await m.write(s.id, { input: 'second', newline: true });
    if (again.kind !== 'shell_session') throw new Error(JSON.stringify(again));
    expect(again.output).toBe('got:second\n');
  });

  test('write on a tty answers an interactive prompt', async () => {
    const m = setup();
    const s = await start(m, 'read -r -p "Name? " n; echo "hi $n"; sleep 30', { tty: true });
    await m.read(s.id, { waitMs: 5000, filter: /Name\?/ });
    const r = await m.write(s.id, { input: 'ada', newline: true });
    if (r.kind !== 'shell_session') throw new Error(JSON.stringify(r));
    expect(r.output).toContain('hi ada');
  });

  test('write on a tty returns what the command printed, not just the echo of the input', async () => {
    const m = setup();
    // The answer comes well after the echo (longer than the settle window).
    const s = await start(m, 'while read -r l; do sleep 0.5; echo "answer:$l"; done', {
      tty: true,
    });
    const r = await m.write(s.id, { input: 'question', newline: true, waitMs: 10_000 });
    if (r.kind !== 'shell_session') throw new Error(JSON.stringify(r));
    expect(r.output).toContain('answer:question');
  });

  test('writing to an exited session is refused', async () => {
    const m = setup();
    const s = await start(m, 'exit 0');
    await s.whenExited;
    const r = await m.write(s.id, { input: 'x', newline: true });
    expect(r).toMatchObject({ kind: 'error', code: 'shell_exited' });
  });

  test('kill ends the whole process tree, including jobs that left the group', async () => {
    const m = setup();
    const s = await start(
      m,
      'sleep 610 & setsid sleep 611 & (nohup sleep 612 >/dev/null 2>&1 &); (trap "" TERM; sleep 613) & echo up; wait',
    );
    // `echo up` runs after every job above was forked, so they all exist when it is read.
    await m.read(s.id, { waitMs: 5000, filter: /up/ });
    expect(processesWithToken(m.tokenPrefix).length).toBeGreaterThanOrEqual(5);
    const r = await m.kill(s.id);
    if (r.kind !== 'shell_session') throw new Error(JSON.stringify(r));
    expect(r.status).toBe('killed');
    expect(r.kill_reason).toBe('kill');
    expect(processesWithToken(m.tokenPrefix)).toEqual([]);
    expect(pgrepMarker('sleep 61[0-3]')).toBe('');
  });

  test('kill signals the whole process group: a child of the shell gets the SIGTERM and can clean up', async () => {
    // Without the launcher (which would forward the signal itself) the host's own kill is what runs.
    f = shellFixture({ agent: { shell_sandbox: false } }, { launcher: null });
    const m = f.service.forSession('s_manager01');
    const mark = join(f.root, 'cleaned');
    const s = await start(
      m,
      `(trap "echo cleaned > '${mark}'; exit 0" TERM; while :; do sleep 0.1; done) & echo up; wait`,
    );
    await m.read(s.id, { waitMs: 5000, filter: /up/ });
    await m.kill(s.id);
    // Signalled by pid alone, the child would only meet the final SIGKILL sweep: no file.
    expect(existsSync(mark)).toBe(true);
    expect(processesWithToken(m.tokenPrefix)).toEqual([]);
  });

  test('a full store refuses a new start naming the cap, and evicts finished shells oldest first', async () => {
    const m = setup({ shells: { max_sessions: 2 } });
    const done = await start(m, 'echo done');
    await done.whenExited;
    const a = await start(m, 'sleep 620');
    const b = await start(m, 'sleep 621');
    expect(m.get(done.id)).toBeUndefined();
    const refused = await m.start(req('sleep 622'));
    expect(refused).toMatchObject({ kind: 'error', code: 'shell_cap' });
    expect((refused as { message: string }).message).toContain('shells.max_sessions');
    expect((refused as { message: string }).message).toContain('2');
    const fg = await m.run({ ...req('echo fg'), timeoutMs: 5000 });
    expect(fg).toMatchObject({ kind: 'error', code: 'shell_cap' });
    await m.kill(a.id);
    const c = await start(m, 'echo after');
    expect(m.get(a.id)).toBeUndefined();
    expect(m.list().map((s) => s.shell_id)).toEqual([b.id, c.id]);
  });

  test('a running foreground command holds a slot', async () => {
    const m = setup({ shells: { max_sessions: 1 } });
    // The command signals it runs (a file) and ends when told (another file): no clock decides
    // whether the checks below happen while it holds its slot.
    const started = join(f.root, 'started');
    const release = join(f.root, 'release');
    const running = m.run({
      ...req(`: > started; while [ ! -e release ]; do sleep 0.02; done; echo fg-done`),
      timeoutMs: 60_000,
    });
    await until(() => existsSync(started));
    expect(m.list()).toHaveLength(1);
    expect(await m.start(req('echo bg'))).toMatchObject({ kind: 'error', code: 'shell_cap' });
    writeFileSync(release, '');
    const done = await running;
    if ('kind' in done) throw new Error(JSON.stringify(done));
    expect(done.result.text).toBe('fg-done\n');
    const s = await start(m, 'echo bg');
    expect(s.id).toBe('shell_1');
  });

  test('an idle running shell is reaped after shells.idle_timeout_s', async () => {
    const m = setup({ shells: { idle_timeout_s: 1 } });
    const s = await start(m, 'sleep 630');
    const info = await s.whenExited;
    expect(info.status).toBe('killed');
    expect(info.kill_reason).toBe('idle');
    expect(pgrepMarker('sleep 630')).toBe('');
  });

  test('disposing the manager kills every shell and leaves no process behind', async () => {
    const m = setup();
    const a = await start(m, 'sleep 640 & setsid sleep 641 & echo up; wait');
    const b = await start(m, 'echo up; exec sleep 642', { tty: true });
    // Both printed `up` after forking their jobs: every process exists now, whatever the load.
    await m.read(a.id, { waitMs: 10_000, filter: /up/ });
    await m.read(b.id, { waitMs: 10_000, filter: /up/ });
    const prefix = m.tokenPrefix;
    expect(processesWithToken(prefix).length).toBeGreaterThanOrEqual(4);
    await f.service.disposeSession('s_manager01');
    expect(processesWithToken(prefix)).toEqual([]);
    expect(pgrepMarker('sleep 64[0-2]')).toBe('');
  });
});
