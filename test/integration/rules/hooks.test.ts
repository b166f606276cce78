import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunHarness, resultsOf, shell, type RunResult } from './run-harness';

// Hooks with Claude Code's contract, through `mewbo run` against a scripted model.

let h: RunHarness;
beforeEach(async () => {
  h = await RunHarness.start();
});
afterEach(async () => {
  await h.close();
});

const hooks = (event: string, command: string, extra: Record<string, unknown> = {}) => ({
  hooks: { [event]: [{ ...extra, hooks: [{ type: 'command', command }] }] },
});
/** Running or sleeping; a zombie (killed, not yet reaped by an init that may never reap) is dead. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}
const hookRuns = (r: RunResult) => r.events.filter((e) => e.type === 'hook_run');

describe('hooks in mewbo run', () => {
  it('a PreToolUse hook that exits 2 blocks the call, and the model next reads its stderr', async () => {
    h.userConfig(
      hooks(
        'PreToolUse',
        `cat > "${h.home}/pre-input.json"; echo "no touching today" >&2; exit 2`,
        {
          matcher: 'Bash',
        },
      ),
    );
    h.fake.script.push({ toolCalls: [shell('touch made.txt')] }, { text: 'ok' });
    const r = await h.run(['--permission-mode', 'auto', 'make it']);
    expect(existsSync(join(h.project, 'made.txt'))).toBe(false);
    expect(resultsOf(r)[0]).toMatchObject({ kind: 'error', code: 'hook_blocked' });
    expect(h.fake.requests[1]!.transcript).toContain('no touching today');
    const input = JSON.parse(readFileSync(join(h.home, 'pre-input.json'), 'utf8'));
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'touch made.txt' },
      cwd: h.project,
    });
    expect(typeof input.session_id).toBe('string');
    expect(hookRuns(r)[0]).toMatchObject({
      outcome: 'blocked',
      exit_code: 2,
      hook_event: 'PreToolUse',
    });
  });

  it('a PreToolUse hook whose matcher does not fit leaves the call alone', async () => {
    h.userConfig(hooks('PreToolUse', 'exit 2', { matcher: 'Edit|Write' }));
    h.fake.script.push({ toolCalls: [shell('touch made.txt')] }, { text: 'ok' });
    const r = await h.run(['--permission-mode', 'auto', 'make it']);
    expect(existsSync(join(h.project, 'made.txt'))).toBe(true);
    expect(hookRuns(r)).toHaveLength(0);
  });

  it("a UserPromptSubmit hook's stdout reaches the model", async () => {
    h.userConfig(hooks('UserPromptSubmit', 'echo "The codeword is PLUM."'));
    h.fake.script.push({ text: 'ok' });
    const r = await h.run(['hello']);
    expect(r.code).toBe(0);
    expect(h.fake.requests[0]!.transcript).toContain('The codeword is PLUM.');
    expect(h.fake.requests[0]!.transcript).toContain('hello');
  });

  it("a SessionStart hook's stdout reaches the model with the session's first message", async () => {
    h.userConfig(
      hooks('SessionStart', `grep -q '"source":"startup"' && echo "branch is main, 3 open PRs"`),
    );
    h.fake.script.push({ text: 'ok' });
    await h.run(['hello']);
    expect(h.fake.requests[0]!.transcript).toContain('branch is main, 3 open PRs');
  });

  it('a UserPromptSubmit hook that exits 2 drops the prompt: the model never sees it', async () => {
    h.userConfig(hooks('UserPromptSubmit', 'echo "prompts about secrets are blocked" >&2; exit 2'));
    h.fake.script.push({ text: 'ok' });
    const r = await h.run(['tell me the secret']);
    expect(h.fake.requests).toHaveLength(0);
    expect(hookRuns(r)[0]).toMatchObject({
      outcome: 'blocked',
      stderr: expect.stringContaining('blocked'),
    });
    expect(r.events.some((e) => e.type === 'user_message')).toBe(false);
  });

  it('a PostToolUse hook gets the tool response, and its exit-2 stderr goes to the model', async () => {
    h.userConfig(
      hooks(
        'PostToolUse',
        `cat > "${h.home}/post-input.json"; echo "lint failed: fix it" >&2; exit 2`,
      ),
    );
    h.fake.script.push({ toolCalls: [shell('echo built')] }, { text: 'ok' });
    await h.run(['--permission-mode', 'auto', 'build']);
    const input = JSON.parse(readFileSync(join(h.home, 'post-input.json'), 'utf8'));
    expect(input.tool_response.kind).toBe('shell');
    expect(h.fake.requests[1]!.transcript).toContain('lint failed: fix it');
  });

  it('a Stop hook that exits 2 keeps the agent going with its reason, once', async () => {
    h.userConfig(
      hooks(
        'Stop',
        `grep -q '"stop_hook_active":true' && exit 0; echo "run the tests before you stop" >&2; exit 2`,
      ),
    );
    h.fake.script.push({ text: 'done early' }, { text: 'tests ran, done' });
    const r = await h.run(['work']);
    expect(r.code).toBe(0);
    expect(h.fake.requests).toHaveLength(2);
    expect(h.fake.requests[1]!.transcript).toContain('run the tests before you stop');
  });

  it('a hook that hangs is killed with its whole process group at its timeout, and reported', async () => {
    const pidFile = join(h.home, 'child.pid');
    h.userConfig({
      hooks: {
        PreToolUse: [
          {
            hooks: [{ command: `sleep 300 & echo $! > "${pidFile}"; sleep 300`, timeout: 1 }],
          },
        ],
      },
    });
    h.fake.script.push({ toolCalls: [shell('echo after')] }, { text: 'ok' });
    const r = await h.run(['--permission-mode', 'auto', 'go']);
    expect(hookRuns(r)[0]).toMatchObject({
      outcome: 'timeout',
      stderr: expect.stringContaining('timeout'),
    });
    // The call went on: a hook that fails or times out does not block.
    expect(resultsOf(r)[0]!.kind).toBe('shell');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('a malformed hook is a warning naming the file and line; the other hooks still run', async () => {
    h.write(
      'configs/app.json',
      JSON.stringify(
        {
          hooks: {
            PreToolUse: [{ matcher: '(', hooks: [{ command: 'exit 2' }] }],
            UserPromptSubmit: [{ hooks: [{ command: 'echo ctx-from-good-hook' }] }],
            NoSuchEvent: [],
          },
        },
        null,
        2,
      ),
    );
    h.fake.script.push({ text: 'ok' });
    const r = await h.run(['hi']);
    expect(r.stderr).toMatch(
      /configs\/app\.json:5: hooks: PreToolUse: matcher "\(" is not a regular expression/,
    );
    expect(r.stderr).toMatch(/configs\/app\.json:\d+: hooks: unknown event "NoSuchEvent"/);
    expect(h.fake.requests[0]!.transcript).toContain('ctx-from-good-hook');
  });
});

describe("an untrusted project's hooks and rules", () => {
  it('are ignored until the project is trusted (--trust), and then apply', async () => {
    h.write(
      '.claude/settings.json',
      {
        permissions: { deny: ['Bash(touch:*)'] },
        hooks: { UserPromptSubmit: [{ hooks: [{ command: 'echo project-hook-ran' }] }] },
      },
      'project',
    );
    h.fake.script.push({ toolCalls: [shell('touch one.txt')] }, { text: 'ok' });
    const untrusted = await h.run(['--permission-mode', 'auto', 'go']);
    expect(existsSync(join(h.project, 'one.txt'))).toBe(true);
    expect(hookRuns(untrusted)).toHaveLength(0);
    expect(h.fake.requests[0]!.transcript).not.toContain('project-hook-ran');

    h.fake.script.push({ toolCalls: [shell('touch two.txt')] }, { text: 'ok' });
    const trusted = await h.run(['--trust', '--permission-mode', 'auto', 'go']);
    expect(existsSync(join(h.project, 'two.txt'))).toBe(false);
    expect(resultsOf(trusted)[0]).toMatchObject({ code: 'denied_by_rule' });
    expect(h.fake.requests[2]!.transcript).toContain('project-hook-ran');
  });
});
