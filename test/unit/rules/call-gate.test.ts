import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hooksFromSource } from '../../../electron/host/hooks/hook-config';
import { gateCall } from '../../../electron/host/rules/call-gate';
import type { LoadedRule } from '../../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../../electron/host/rules/rule';
import { RulesService, type LoadedSettings } from '../../../electron/host/rules/rules-service';
import { tempDir } from '../../helpers/temp';
import { TRUST_NO_PROJECT } from '../../helpers/project-trust';

// The call gate: PreToolUse hooks, then the rules, decide what happens to a call before it runs.
// A real RulesService (bash's grammar loaded on the first shell call) and real hook processes.

let home: ReturnType<typeof tempDir>;
let rules: RulesService;
beforeEach(() => {
  home = tempDir('mewbo-gate-');
  rules = new RulesService({
    configFile: join(home.dir, 'app.json'),
    trust: TRUST_NO_PROJECT,
    env: { PATH: process.env.PATH },
    updateUserConfig: async () => undefined,
  });
});
afterEach(() => home.cleanup());

const rule = (kind: RuleKind, raw: string, where: Partial<LoadedRule> = {}): LoadedRule => {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return { kind, rule: p.rule, scope: 'user', ...where };
};
const hooks = (...commands: string[]) =>
  hooksFromSource(
    {
      scope: 'user',
      file: 'app.json',
      text: '',
      json: { hooks: { PreToolUse: [{ hooks: commands.map((command) => ({ command })) }] } },
    },
    [],
  );
const gate = (command: string, settings: Partial<LoadedSettings>) =>
  gateCall({
    rules,
    settings: { rules: [], hooks: [], warnings: [], trusted: false, ...settings },
    tool: 'aider_shell_tool',
    args: { command },
    root: home.dir,
    sessionId: 's',
    agentId: 'main',
    callId: 'c',
    mode: 'auto',
    signal: new AbortController().signal,
    append: async () => {},
  });

describe('gateCall', () => {
  it('a deny rule blocks, naming the rule and where it was written', async () => {
    const denied = await gate('FOO=1 rm x', {
      rules: [rule('deny', 'Bash(rm:*)', { file: '/h/app.json', line: 7 })],
    });
    expect(denied).toEqual({
      kind: 'blocked',
      payload: expect.objectContaining({
        kind: 'error',
        code: 'denied_by_rule',
        message: `The user's permission rule deny "Bash(rm:*)" (/h/app.json:7) blocks this call. Do not retry it; take another approach or ask the user.`,
      }),
    });
    const session = await gate('rm x', {
      rules: [rule('deny', 'Bash(rm:*)', { scope: 'session' })],
    });
    expect(session.kind === 'blocked' && session.payload.message).toMatch(
      /"Bash\(rm:\*\)" \(this session's rules\) blocks/,
    );
    const noLine = await gate('rm x', {
      rules: [rule('deny', 'Bash(rm:*)', { file: '/h/a.json' })],
    });
    expect(noLine.kind === 'blocked' && noLine.payload.message).toMatch(/\(\/h\/a\.json\) blocks/);
  });

  it('a command a deny rule cannot check asks, saying why', async () => {
    expect(await gate('ls; echo )', { rules: [rule('deny', 'Bash(rm:*)')] })).toEqual({
      kind: 'ask',
      why: 'the deny rule "Bash(rm:*)" cannot be checked: bash cannot parse it (near ")" at character 10)',
    });
  });

  it('an ask rule asks, an allow rule allows, and with neither the mode decides', async () => {
    expect(await gate('git push', { rules: [rule('ask', 'Bash(git push:*)')] })).toEqual({
      kind: 'ask',
      why: 'ask rule "Bash(git push:*)"',
    });
    expect(await gate('git status', { rules: [rule('allow', 'Bash(git status)')] })).toEqual({
      kind: 'allow',
    });
    expect(await gate('git status', {})).toEqual({ kind: 'mode' });
  });

  it('a hook may block, deny, ask or allow; a deny rule still beats its allow', async () => {
    const blocked = await gate('ls', { hooks: hooks('echo no >&2; exit 2') });
    expect(blocked).toMatchObject({ kind: 'blocked', payload: { code: 'hook_blocked' } });
    const json = (d: string, reason = '') =>
      hooks(`echo '{"permissionDecision":"${d}","permissionDecisionReason":"${reason}"}'`);
    expect(await gate('ls', { hooks: json('deny', 'not today') })).toMatchObject({
      kind: 'blocked',
      payload: { code: 'hook_denied', message: 'not today' },
    });
    expect(await gate('ls', { hooks: json('deny') })).toMatchObject({
      payload: { message: 'A PreToolUse hook denied this call.' },
    });
    expect(await gate('ls', { hooks: json('ask', 'check') })).toEqual({
      kind: 'ask',
      why: 'check',
    });
    expect(await gate('ls', { hooks: json('ask') })).toEqual({
      kind: 'ask',
      why: 'a PreToolUse hook asked for approval',
    });
    expect(await gate('ls', { hooks: json('allow') })).toEqual({ kind: 'allow' });
    expect(
      await gate('rm x', { hooks: json('allow'), rules: [rule('deny', 'Bash(rm:*)')] }),
    ).toMatchObject({ kind: 'blocked', payload: { code: 'denied_by_rule' } });
    expect(
      await gate('git push', { hooks: json('allow'), rules: [rule('ask', 'Bash(git push:*)')] }),
    ).toMatchObject({ kind: 'ask' });
  });
});
