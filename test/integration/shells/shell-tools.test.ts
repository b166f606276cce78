import { afterEach, describe, expect, test } from 'vitest';
import type { ToolPayload } from '../../../shared/tools/payload';
import { apiDriver, mcpDriver, survivors, workspace, type Driver, type Workspace } from './harness';

// Every behaviour of aider_shell_tool and shell_session_tool, through the tool API and through
// `mewbo mcp` with a real MCP client process: the same scenarios, both ways.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the assertions check each field they read
type P = ToolPayload & Record<string, any>;
const drivers = { 'tool API': apiDriver, 'mewbo mcp': mcpDriver };

let ws: Workspace | undefined;
let driver: Driver | undefined;
afterEach(async () => {
  await driver?.close();
  ws?.cleanup();
  driver = ws = undefined;
});

describe.each(Object.entries(drivers))('shell tools through the %s', (_name, make) => {
  async function setup(config: Record<string, unknown> = {}) {
    ws = workspace(config);
    driver = await make(ws);
    const shell = (args: Record<string, unknown>) =>
      driver!.call('aider_shell_tool', args) as Promise<P>;
    const session = (args: Record<string, unknown>) =>
      driver!.call('shell_session_tool', args) as Promise<P>;
    return { shell, session, ws };
  }

  test('a foreground command returns merged output, exit code, duration and the sandbox state', async () => {
    const { shell, ws } = await setup();
    const r = await shell({
      command: `echo out; echo err >&2; cat ${ws.other}/secret.txt; exit 3`,
    });
    expect(r).toMatchObject({
      kind: 'shell',
      exit_code: 3,
      timed_out: false,
      sandbox: { mode: 'landlock' },
    });
    expect(r.stdout).toMatch(/^out\nerr\n.*Permission denied\n$/);
    expect(r.stdout).not.toContain('OTHER-PROJECT-SECRET');
    expect(typeof r.duration_ms).toBe('number');
  });

  test('a cwd outside the root is a path validation error', async () => {
    const { shell, ws } = await setup();
    expect(await shell({ command: 'pwd', cwd: ws.other })).toMatchObject({
      kind: 'error',
      code: 'path_validation',
    });
    expect(await shell({ command: 'pwd', cwd: '../other' })).toMatchObject({
      kind: 'error',
      code: 'path_validation',
    });
  });

  test('at the timeout the group is killed and the result says so with exit code 1', async () => {
    const { shell } = await setup();
    const r = await shell({ command: 'echo started; sleep 710 & sleep 711', timeout: 0.5 });
    expect(r).toMatchObject({ kind: 'shell', exit_code: 1, timed_out: true });
    expect(r.stdout).toContain('started\n');
    expect(r.stdout).toContain('timed out after 0.5 s');
    expect(survivors('sleep 71[01]')).toBe('');
  });

  test('output over 30,000 characters keeps its head and tail around a marker', async () => {
    const { shell } = await setup();
    const r = await shell({ command: 'seq 1 30000' });
    expect(r.stdout.length).toBeLessThanOrEqual(30_000);
    expect(r.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.stdout.endsWith('29999\n30000\n')).toBe(true);
    expect(r.stdout).toContain('characters omitted');
    expect(r.truncated_characters).toBeGreaterThan(100_000);
  });

  test('a pager and a password prompt return at once', async () => {
    const { shell } = await setup();
    const git = await shell({
      command:
        'git init -q r && cd r && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m first && git -c core.pager=less log --format=%s',
      timeout: 20,
    });
    expect(git).toMatchObject({ exit_code: 0, timed_out: false, stdout: 'first\n' });
    const prompt = await shell({
      command: `python3 -c "import getpass; print(getpass.getpass('Password: '))"`,
      timeout: 20,
    });
    expect(prompt).toMatchObject({ timed_out: false });
    expect(prompt.exit_code).not.toBe(0);
    const ttyPager = await shell({
      command: 'seq 1 500 > f && less f; echo "less rc=$?"',
      tty: true,
      timeout: 20,
    });
    expect(ttyPager).toMatchObject({ timed_out: false });
    expect(ttyPager.stdout).toContain('less rc=');
  });

  test('a background start returns a shell_id at once; reads are incremental by cursor', async () => {
    const { shell, session } = await setup();
    const start = await shell({
      command: 'echo one; read -r x; echo two',
      run_in_background: true,
    });
    expect(start).toMatchObject({ kind: 'shell', shell_id: 'shell_1', status: 'running' });
    expect(start).not.toHaveProperty('exit_code');
    expect(start).not.toHaveProperty('duration_ms');
    const first = await session({ operation: 'read', shell_id: 'shell_1', wait_ms: 5000 });
    expect(first).toMatchObject({
      kind: 'shell_session',
      shell_id: 'shell_1',
      command: 'echo one; read -r x; echo two',
      status: 'running',
      exit_code: null,
      output: 'one\n',
      cursor: 4,
    });
    const reply = await session({ operation: 'write', shell_id: 'shell_1', input: 'go' });
    expect(reply.output).toBe('two\n');
    const after = await session({
      operation: 'read',
      shell_id: 'shell_1',
      cursor: first.cursor,
      wait_ms: 2000,
    });
    expect(after).toMatchObject({ output: 'two\n', cursor: 8 });
    const final = await session({
      operation: 'read',
      shell_id: 'shell_1',
      cursor: after.cursor,
      wait_ms: 5000,
    });
    expect(final).toMatchObject({ output: '', status: 'exited', exit_code: 0 });
    expect(await session({ operation: 'write', shell_id: 'shell_1', input: 'late' })).toMatchObject(
      { kind: 'error', code: 'shell_exited' },
    );
  });

  test('evicted output is reported as missed_characters', async () => {
    const { shell, session } = await setup({ shells: { buffer_chars: 1024 } });
    await shell({ command: 'seq 1 2000; sleep 30', run_in_background: true });
    const r = await session({
      operation: 'read',
      shell_id: 'shell_1',
      cursor: 0,
      wait_ms: 3000,
      filter: '^2000$',
    });
    expect(r.missed_characters).toBe(r.cursor - 1024);
    expect(r.output).toBe('2000\n');
  });

  test('a filtered read leaves the cursor where an unfiltered one would; wait_ms is capped at 30000', async () => {
    const { shell, session } = await setup();
    await shell({
      command: 'printf "GET /a 200\\nGET /b 500\\nGET /c 200\\n"; sleep 30',
      run_in_background: true,
    });
    const filtered = await session({
      operation: 'read',
      shell_id: 'shell_1',
      filter: ' 500$',
      wait_ms: 3000,
    });
    const plain = await session({ operation: 'read', shell_id: 'shell_1' });
    expect(filtered.output).toBe('GET /b 500\n');
    expect(filtered.cursor).toBe(plain.cursor);
    expect(
      await session({ operation: 'read', shell_id: 'shell_1', wait_ms: 30_001 }),
    ).toMatchObject({ kind: 'error', code: 'invalid_args' });
    expect(await session({ operation: 'read', shell_id: 'shell_1', filter: '(' })).toMatchObject({
      kind: 'error',
      code: 'invalid_args',
    });
  });

  test('wait_ms waits for output that arrives later', async () => {
    const { shell, session } = await setup();
    await shell({ command: 'sleep 0.5; echo late-line; sleep 30', run_in_background: true });
    const r = await session({ operation: 'read', shell_id: 'shell_1', wait_ms: 10_000 });
    expect(r.output).toBe('late-line\n');
  });

  test('kill ends the whole process tree and leaves no survivor', async () => {
    const { shell, session } = await setup();
    await shell({
      command: 'sleep 720 & setsid sleep 721 & (nohup sleep 722 >/dev/null 2>&1 &); echo up; wait',
      run_in_background: true,
    });
    await session({ operation: 'read', shell_id: 'shell_1', wait_ms: 5000, filter: 'up' });
    const killed = await session({ operation: 'kill', shell_id: 'shell_1' });
    expect(killed).toMatchObject({ status: 'killed', kill_reason: 'kill' });
    expect(survivors('sleep 72[0-2]')).toBe('');
  });

  test('the cap refuses a new start naming it; list shows every shell', async () => {
    const { shell, session } = await setup({ shells: { max_sessions: 2 } });
    await shell({ command: 'sleep 730', run_in_background: true });
    await shell({ command: 'sleep 731', run_in_background: true });
    const refused = await shell({ command: 'sleep 732', run_in_background: true });
    expect(refused).toMatchObject({ kind: 'error', code: 'shell_cap' });
    expect(refused.message).toContain('shells.max_sessions, is 2');
    const list = await session({ operation: 'list' });
    expect(list).toMatchObject({ kind: 'shell_session', operation: 'list', cap: 2 });
    expect(
      list.shells.map((s: { shell_id: string; status: string }) => [s.shell_id, s.status]),
    ).toEqual([
      ['shell_1', 'running'],
      ['shell_2', 'running'],
    ]);
    expect(await session({ operation: 'read', shell_id: 'shell_9' })).toMatchObject({
      kind: 'error',
      code: 'not_found',
    });
    expect(await session({ operation: 'read' })).toMatchObject({
      kind: 'error',
      code: 'invalid_args',
    });
  });

  test('an idle shell is reaped after shells.idle_timeout_s', async () => {
    const { shell, session } = await setup({ shells: { idle_timeout_s: 1 } });
    await shell({ command: 'sleep 740', run_in_background: true });
    await new Promise((r) => setTimeout(r, 3000));
    const r = await session({ operation: 'read', shell_id: 'shell_1' });
    expect(r).toMatchObject({ status: 'killed', kill_reason: 'idle' });
    expect(survivors('sleep 740')).toBe('');
  });
});

test('a background shell records shell_started and shell_exited events', async () => {
  ws = workspace();
  driver = await apiDriver(ws);
  await driver.call('aider_shell_tool', { command: 'exit 5', run_in_background: true });
  await driver.call('shell_session_tool', {
    operation: 'read',
    shell_id: 'shell_1',
    wait_ms: 5000,
  });
  // The exit event is emitted after the read that saw the exit returns: poll for it, bounded.
  await expect.poll(() => driver!.events.length, { timeout: 10_000 }).toBe(2);
  expect(driver.events).toEqual([
    { type: 'shell_started', shell_id: 'shell_1', command: 'exit 5', cwd: ws.root },
    { type: 'shell_exited', shell_id: 'shell_1', exit_code: 5, signal: null },
  ]);
});
