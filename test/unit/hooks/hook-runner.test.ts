import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEventBody } from '../../../shared/protocol/events';
import {
  HOOK_EVENT_OUTPUT_MAX_CHARS,
  type HookEventName,
} from '../../../electron/host/hooks/constants';
import { hooksFromSource, type HookCommand } from '../../../electron/host/hooks/hook-config';
import type { HookConfine } from '../../../electron/host/hooks/hook-sandbox';
import { runEventHooks, type HookEventInput } from '../../../electron/host/hooks/hook-runner';
import { tempDir } from '../../helpers/temp';

// One event's hooks, run as real `sh` processes, read with Claude Code's contract: exit 2 or
// `decision: "block"` blocks; the strongest permissionDecision wins; what reaches the model; the
// hook_run event each run leaves. And the confinement decision: a project's hook runs only as
// the confiner starts it (never unconfined, also when nothing can confine it); the user's own
// hooks run as the user.

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('mewbo-hook-runner-');
});
afterEach(() => t.cleanup());

function hook(
  command: string,
  o: { event?: HookEventName; scope?: 'user' | 'project'; matcher?: string; timeout?: number } = {},
): HookCommand {
  const event = o.event ?? 'PreToolUse';
  const [h] = hooksFromSource(
    {
      scope: o.scope ?? 'user',
      file: 'settings.json',
      text: '',
      json: {
        hooks: {
          [event]: [
            {
              matcher: o.matcher,
              hooks: [{ command, ...(o.timeout ? { timeout: o.timeout } : {}) }],
            },
          ],
        },
      },
    },
    [],
  );
  return h!;
}

async function run(hooks: HookCommand[], o: Partial<HookEventInput> = {}) {
  const events: SessionEventBody[] = [];
  const outcome = await runEventHooks({
    event: 'PreToolUse',
    hooks,
    root: t.dir,
    sessionId: 's_hooks1',
    tool: 'aider_shell_tool',
    fields: { tool_input: { command: 'ls' } },
    env: { PATH: process.env.PATH },
    append: async (e) => void events.push(e),
    ...o,
  });
  return { outcome, events };
}
const json = (o: unknown) => `echo '${JSON.stringify(o)}'`;

describe('runEventHooks: what a hook says', () => {
  it('no hook of the event or tool: nothing runs, nothing is logged', async () => {
    const r = await run([hook('exit 2', { event: 'Stop' }), hook('exit 2', { matcher: 'Read' })]);
    expect(r).toEqual({ outcome: { blocked: false, reason: '' }, events: [] });
  });

  it('gives the hook the event as JSON on stdin and the project and session in its environment', async () => {
    const out = join(t.dir, 'in.json');
    await run([
      hook(
        `cat > "${out}"; echo "$CLAUDE_PROJECT_DIR|$MEWBO_PROJECT_DIR|$MEWBO_SESSION_ID" >> "${out}"`,
      ),
    ]);
    const [input, env] = readFileSync(out, 'utf8').trim().split('\n');
    expect(JSON.parse(input!)).toEqual({
      session_id: 's_hooks1',
      cwd: t.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      mewbo_tool_name: 'aider_shell_tool',
      tool_input: { command: 'ls' },
    });
    expect(env).toBe(`${t.dir}|${t.dir}|s_hooks1`);
  });

  it('an event without a tool names none', async () => {
    const out = join(t.dir, 'in.json');
    await run([hook(`cat > "${out}"`, { event: 'Stop' })], {
      event: 'Stop',
      tool: undefined,
      fields: { stop_hook_active: false },
    });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      session_id: 's_hooks1',
      cwd: t.dir,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
  });

  it('exit 2 blocks with its stderr; the run is logged with its tool, call and agent', async () => {
    const r = await run([hook('echo " not now " >&2; exit 2')], { callId: 'c1', agentId: 'a2' });
    expect(r.outcome).toEqual({ blocked: true, reason: 'not now' });
    expect(r.events).toEqual([
      {
        type: 'hook_run',
        hook_event: 'PreToolUse',
        command: 'echo " not now " >&2; exit 2',
        scope: 'user',
        tool_name: 'aider_shell_tool',
        call_id: 'c1',
        agent_id: 'a2',
        outcome: 'blocked',
        exit_code: 2,
        duration_ms: expect.any(Number),
        stdout: '',
        stderr: ' not now \n',
      },
    ]);
  });

  it('a block with nothing said names the hook; several blocks give every reason', async () => {
    const r = await run([
      hook('exit 2'),
      hook(json({ decision: 'block', reason: 'json says no' })),
    ]);
    expect(r.outcome).toEqual({
      blocked: true,
      reason: 'blocked by the PreToolUse hook `exit 2`\njson says no',
    });
    expect(r.events.map((e) => 'outcome' in e && e.outcome)).toEqual(['blocked', 'blocked']);
  });

  it('an event without tool or call logs neither, and the agent is the root', async () => {
    const r = await run([hook('true', { event: 'Stop' })], { event: 'Stop', tool: undefined });
    expect(r.events[0]).not.toHaveProperty('tool_name');
    expect(r.events[0]).not.toHaveProperty('call_id');
    expect(r.events[0]).toMatchObject({ agent_id: 'root', outcome: 'ok', exit_code: 0 });
  });

  it('a block of PostToolUse or Stop goes to the model; of PreToolUse to nobody but the reason', async () => {
    for (const event of ['PostToolUse', 'Stop'] as const) {
      const r = await run([hook('echo fix it >&2; exit 2', { event })], { event });
      expect(r.events[0]).toMatchObject({ outcome: 'blocked', to_model: 'fix it' });
      const quiet = await run([hook('exit 2', { event })], { event });
      expect(quiet.events[0]).not.toHaveProperty('to_model');
    }
    const pre = await run([hook('echo fix it >&2; exit 2')]);
    expect(pre.events[0]).not.toHaveProperty('to_model');
  });

  it('a JSON block without a reason names the hook; a reason that is not a string is none', async () => {
    const bare = json({ decision: 'block' });
    expect((await run([hook(bare)])).outcome).toEqual({
      blocked: true,
      reason: `blocked by the PreToolUse hook \`${bare}\``,
    });
    const odd = json({ decision: 'block', reason: 5 });
    expect((await run([hook(odd)])).outcome.reason).toBe(
      `blocked by the PreToolUse hook \`${odd}\``,
    );
  });

  it('JSON after white space is read; JSON that is no object is plain output', async () => {
    const padded = await run([
      hook(`echo; echo '  ${JSON.stringify({ decision: 'block', reason: 'pad' })}'`),
    ]);
    expect(padded.outcome).toEqual({ blocked: true, reason: 'pad' });
    for (const out of ['echo null', 'echo 42', `echo '"block"'`]) {
      const r = await run([hook(out)]);
      expect(r.outcome).toEqual({ blocked: false, reason: '' });
    }
  });

  it('stopReason stands for the reason of a JSON block', async () => {
    const r = await run([hook(json({ decision: 'block', stopReason: 'halt' }))]);
    expect(r.outcome).toEqual({ blocked: true, reason: 'halt' });
  });

  it('any other exit is a failure on the card, and nothing is blocked', async () => {
    const r = await run([
      hook(`${json({ decision: 'block', permissionDecision: 'deny' })}; echo oops >&2; exit 1`),
    ]);
    expect(r.outcome).toEqual({ blocked: false, reason: '' });
    expect(r.events[0]).toMatchObject({ outcome: 'failed', exit_code: 1, stderr: 'oops\n' });
  });

  it('stdout that is not a JSON object is plain output, not a decision', async () => {
    for (const out of ['echo "decision block"', "echo '{not json'", `echo '["block"]'`]) {
      const r = await run([hook(out)]);
      expect(r.outcome).toEqual({ blocked: false, reason: '' });
      expect(r.events[0]).toMatchObject({ outcome: 'ok' });
      expect(r.events[0]).not.toHaveProperty('to_model');
    }
  });
});

describe('runEventHooks: permission decisions and context', () => {
  it('the strongest permissionDecision wins, deny over ask over allow, with its reason', async () => {
    const allow = hook(json({ permissionDecision: 'allow', permissionDecisionReason: 'fine' }));
    const ask = hook(
      json({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'hmm' } }),
    );
    const deny = hook(json({ permissionDecision: 'deny', reason: 'no way' }));
    expect((await run([allow])).outcome).toEqual({
      blocked: false,
      reason: '',
      permission: 'allow',
      permissionReason: 'fine',
    });
    for (const order of [
      [allow, ask],
      [ask, allow],
    ])
      expect((await run(order)).outcome).toMatchObject({
        permission: 'ask',
        permissionReason: 'hmm',
      });
    for (const order of [
      [allow, deny, ask],
      [deny, ask, allow],
      [ask, deny],
    ])
      expect((await run(order)).outcome).toMatchObject({
        permission: 'deny',
        permissionReason: 'no way',
      });
  });

  it('of equal decisions the first one keeps its reason', async () => {
    const r = await run([
      hook(json({ permissionDecision: 'allow', permissionDecisionReason: 'first' })),
      hook(json({ permissionDecision: 'allow', permissionDecisionReason: 'second' })),
    ]);
    expect(r.outcome).toMatchObject({ permission: 'allow', permissionReason: 'first' });
  });

  it('hookSpecificOutput speaks over the top level; an unknown decision is none', async () => {
    const r = await run([
      hook(
        json({
          permissionDecision: 'deny',
          permissionDecisionReason: 'top',
          hookSpecificOutput: { permissionDecision: 'allow', permissionDecisionReason: 'inner' },
        }),
      ),
    ]);
    expect(r.outcome).toMatchObject({ permission: 'allow', permissionReason: 'inner' });
    const odd = await run([hook(json({ permissionDecision: 'maybe' }))]);
    expect(odd.outcome).toEqual({ blocked: false, reason: '' });
  });

  it("UserPromptSubmit and SessionStart stdout is the model's context; JSON gives additionalContext only", async () => {
    for (const event of ['UserPromptSubmit', 'SessionStart'] as const) {
      const plain = await run([hook('echo "  today is Friday  "', { event })], { event });
      expect(plain.events[0]).toMatchObject({ outcome: 'ok', to_model: 'today is Friday' });
      const ctx = await run(
        [hook(json({ hookSpecificOutput: { additionalContext: 'from json' } }), { event })],
        { event },
      );
      expect(ctx.events[0]).toMatchObject({ to_model: 'from json' });
      const none = await run([hook(json({ decision: 'approve' }), { event })], { event });
      expect(none.events[0]).not.toHaveProperty('to_model');
      const empty = await run([hook('true', { event })], { event });
      expect(empty.events[0]).not.toHaveProperty('to_model');
      const failed = await run([hook('echo not context; exit 1', { event })], { event });
      expect(failed.events[0]).not.toHaveProperty('to_model');
    }
  });

  it("another event's plain stdout stays on the card; its additionalContext reaches the model", async () => {
    const plain = await run([hook('echo just talking')]);
    expect(plain.events[0]).toMatchObject({ stdout: 'just talking\n' });
    expect(plain.events[0]).not.toHaveProperty('to_model');
    const ctx = await run([hook(json({ additionalContext: 'note this' }))]);
    expect(ctx.events[0]).toMatchObject({ to_model: 'note this' });
    const failed = await run([hook(`${json({ additionalContext: 'lost' })}; exit 1`)]);
    expect(failed.events[0]).not.toHaveProperty('to_model');
  });

  it('what a hook printed is clipped for the card and the model', async () => {
    const n = HOOK_EVENT_OUTPUT_MAX_CHARS;
    const event = 'UserPromptSubmit';
    const at = await run([hook(`head -c ${n} /dev/zero | tr '\\0' a`, { event })], { event });
    expect(at.events[0]).toMatchObject({ stdout: 'a'.repeat(n), to_model: 'a'.repeat(n) });
    const over = await run(
      [
        hook(
          `head -c ${n + 1} /dev/zero | tr '\\0' a; head -c ${n + 1} /dev/zero | tr '\\0' b >&2`,
          { event },
        ),
      ],
      { event },
    );
    expect(over.events[0]).toMatchObject({
      stdout: `${'a'.repeat(n)}\n…`,
      stderr: `${'b'.repeat(n)}\n…`,
      to_model: `${'a'.repeat(n)}\n…`,
    });
  });

  it('a hook past its timeout is killed, is no block, and the card says so', async () => {
    const r = await run([hook('echo partial >&2; sleep 30; exit 2', { timeout: 0.5 })]);
    expect(r.outcome).toEqual({ blocked: false, reason: '' });
    expect(r.events[0]).toMatchObject({
      outcome: 'timeout',
      stderr: 'partial\n\nkilled after 0.5 s (timeout), with its process group',
    });
    const silent = await run([hook('sleep 30', { timeout: 0.5 })]);
    expect(silent.events[0]).toMatchObject({
      stderr: 'killed after 0.5 s (timeout), with its process group',
    });
  });
});

describe("runEventHooks: a project's hook runs confined, the user's as the user", () => {
  /** A confiner that records what it was asked and starts `sh` with a marker prefix on stdin. */
  function confiner(calls: Parameters<HookConfine>[]): HookConfine {
    return async (...args) => {
      calls.push(args);
      return {
        argv: ['/bin/sh', '-c', `echo CONFINED; ${args[2][2]}`],
        stdinPrefix: Buffer.from('RULES\n'),
        env: { ...args[3], CONFINED_ENV: '1' },
      };
    };
  }

  it("a project's hook starts as the confiner says: its argv, the rules ahead of the input, its environment", async () => {
    const calls: Parameters<HookConfine>[] = [];
    const out = join(t.dir, 'stdin');
    const r = await run([hook(`cat > "${out}"; echo "env=$CONFINED_ENV"`, { scope: 'project' })], {
      confine: confiner(calls),
    });
    expect(calls).toHaveLength(1);
    const [sessionId, root, argv, env] = calls[0]!;
    expect([sessionId, root, argv]).toEqual([
      's_hooks1',
      t.dir,
      ['/bin/sh', '-c', `cat > "${out}"; echo "env=$CONFINED_ENV"`],
    ]);
    expect(env).toMatchObject({ MEWBO_SESSION_ID: 's_hooks1', CLAUDE_PROJECT_DIR: t.dir });
    expect(r.events[0]).toMatchObject({
      scope: 'project',
      outcome: 'ok',
      stdout: 'CONFINED\nenv=1\n',
    });
    expect(readFileSync(out, 'utf8')).toMatch(/^RULES\n\{"session_id":"s_hooks1"/);
  });

  it("the user's own hook is never handed to the confiner", async () => {
    const calls: Parameters<HookConfine>[] = [];
    const r = await run([hook('echo "env=$CONFINED_ENV"')], { confine: confiner(calls) });
    expect(calls).toEqual([]);
    expect(r.events[0]).toMatchObject({ scope: 'user', stdout: 'env=\n' });
  });

  it("with nothing to confine it, a project's hook does not run: a failure saying so, no block", async () => {
    const marker = join(t.dir, 'ran');
    const r = await run([hook(`touch "${marker}"; exit 2`, { scope: 'project' })]);
    expect(r.outcome).toEqual({ blocked: false, reason: '' });
    expect(r.events[0]).toMatchObject({
      outcome: 'failed',
      exit_code: null,
      duration_ms: 0,
      stdout: '',
      stderr:
        "a project's hook is not run: nothing here can confine it, and it never runs unconfined",
    });
    expect(() => readFileSync(marker)).toThrow();
  });

  it("a confiner's refusal is the hook's failure, with its reason; the user's hooks beside it still run", async () => {
    const marker = join(t.dir, 'ran');
    const r = await run(
      [hook(`touch "${marker}"; exit 2`, { scope: 'project' }), hook('echo user-ran')],
      {
        confine: async () => ({
          refused: { kind: 'error', code: 'sandbox_unavailable', message: 'no Landlock here' },
        }),
      },
    );
    expect(r.outcome).toEqual({ blocked: false, reason: '' });
    expect(r.events).toMatchObject([
      { scope: 'project', outcome: 'failed', stderr: 'no Landlock here' },
      { scope: 'user', outcome: 'ok', stdout: 'user-ran\n' },
    ]);
    expect(() => readFileSync(marker)).toThrow();
  });
});
