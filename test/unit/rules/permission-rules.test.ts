import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BashParser } from '../../../electron/host/rules/bash-parser';
import { ShellJudge, type CallInput } from '../../../electron/host/rules/match-rule';
import { decideByRules, type LoadedRule } from '../../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../../electron/host/rules/rule';
import { RulesService } from '../../../electron/host/rules/rules-service';
import { tempDir } from '../../helpers/temp';
import { TRUST_NO_PROJECT } from '../../helpers/project-trust';

// The rules in force and the verdict they give: what a settings file's `permissions` loads (and
// the warnings, with their lines, for what it cannot), and deny beating ask beating allow.

const parser = await BashParser.load();
const decide = (rules: LoadedRule[], call: CallInput) =>
  decideByRules(rules, call, new ShellJudge(parser));

let home: ReturnType<typeof tempDir>;
let service: RulesService;
beforeAll(() => {
  home = tempDir('mewbo-permission-rules-');
  service = new RulesService({
    configFile: join(home.dir, 'app.json'),
    trust: TRUST_NO_PROJECT,
    env: {},
    updateUserConfig: async () => undefined,
  });
});
afterAll(() => home.cleanup());

/** Loads configs/app.json holding `text`; its rules (kind and rule as written) and warnings. */
async function load(text: string) {
  const file = join(home.dir, 'app.json');
  writeFileSync(file, text);
  const s = await service.load(null);
  return { file, rules: s.rules, warnings: s.warnings };
}

const loaded = (kind: RuleKind, raw: string): LoadedRule => {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return { kind, rule: p.rule, scope: 'user' };
};

describe('rules loaded from a settings file', () => {
  it('loads each rule with its kind, scope, file and line; a file without permissions loads none and says nothing', async () => {
    const text = [
      '{',
      '  "permissions": {',
      '    "deny": ["Bash(rm:*)"],',
      '    "allow": ["Read", "Bash(ls)"]',
      '  }',
      '}',
    ].join('\n');
    const { file, rules, warnings } = await load(text);
    expect(warnings).toEqual([]);
    expect(rules.map((r) => ({ ...r, rule: r.rule.raw }))).toEqual([
      { kind: 'deny', rule: 'Bash(rm:*)', scope: 'user', file, line: 3 },
      { kind: 'allow', rule: 'Read', scope: 'user', file, line: 4 },
      { kind: 'allow', rule: 'Bash(ls)', scope: 'user', file, line: 4 },
    ]);
    expect(await load('{ "model": "x" }')).toMatchObject({ rules: [], warnings: [] });
  });

  it.each([['null'], ['"allow everything"'], ['["Bash(ls)"]']])(
    'permissions that are no object (%s) are a warning at their line, and load no rule',
    async (value) => {
      const { file, rules, warnings } = await load(
        `{\n  "model": "x",\n  "permissions": ${value}\n}`,
      );
      expect(rules).toEqual([]);
      expect(warnings).toEqual([
        { file, line: 3, message: 'permissions must be an object with allow/ask/deny lists' },
      ]);
    },
  );

  it('a bad rule or a list that is no list is a warning at its own line, past an earlier key or list holding the same text; the rest still load', async () => {
    const text = [
      '{',
      '  "hooks-notes": { "allow": ["Bash(npm"], "deny": 0 },',
      '  "permissions": {',
      '    "ask": ["Bash(npm"],',
      '    "allow": [',
      '      "Bash(npm",',
      '      "Bash(ls)"',
      '    ],',
      '    "deny": 3',
      '  }',
      '}',
    ].join('\n');
    const { file, rules, warnings } = await load(text);
    const bad = parseRule('Bash(npm');
    const error = bad.ok ? '' : bad.error;
    expect(warnings).toEqual([
      { file, line: 9, message: 'permissions.deny must be a list of rules' },
      { file, line: 4, message: `permissions.ask: ${error}` },
      { file, line: 6, message: `permissions.allow: ${error}` },
    ]);
    expect(rules.map((r) => [r.kind, r.rule.raw, r.line])).toEqual([['allow', 'Bash(ls)', 7]]);
  });
});

describe('decideByRules', () => {
  const sh = (command: string) => ({ tool: 'aider_shell_tool', args: { command }, root: home.dir });
  const read = (path: string) => ({ tool: 'read_file', args: { path }, root: home.dir });

  it('a deny rule that may match (a path it cannot resolve) denies', () => {
    const deny = loaded('deny', 'Read(secrets/**)');
    expect(decide([deny], read('../../etc/passwd'))).toEqual({ kind: 'deny', rule: deny });
  });

  it('a deny or ask rule that does not match decides nothing', () => {
    expect(decide([loaded('deny', 'Bash(rm:*)')], sh('ls'))).toBeNull();
    expect(decide([loaded('ask', 'Bash(rm:*)')], sh('ls'))).toBeNull();
    expect(decide([loaded('deny', 'Read(.env)')], read('a'))).toBeNull();
  });

  it('an ask rule asks when the command cannot be read, without blaming a deny rule', () => {
    const ask = loaded('ask', 'Bash(rm:*)');
    expect(decide([ask, loaded('deny', 'Bash(ls:*)')], sh('echo )'))).toEqual({
      kind: 'ask',
      rule: ask,
    });
  });

  it('a path allow rule allows a file call only when it covers every path the call touches', () => {
    const allow = loaded('allow', 'Edit(src/**)');
    const block = (path: string) =>
      `${path}\n\`\`\`\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n\`\`\`\n`;
    const edit = (...paths: string[]) => ({
      tool: 'aider_edit_block_tool',
      args: { content: paths.map(block).join('\n') },
      root: home.dir,
    });
    expect(decide([allow], edit('src/a.ts'))).toEqual({ kind: 'allow', rule: allow });
    expect(decide([allow], edit('src/a.ts', '.env'))).toBeNull();
    expect(decide([loaded('allow', 'Read(src/**)')], read('.env'))).toBeNull();
  });

  it('an allow rule of another tool never allows a shell command, with or without a pattern', () => {
    expect(decide([loaded('allow', 'Read')], sh('ls'))).toBeNull();
    expect(decide([loaded('allow', 'Read(ls)')], sh('ls'))).toBeNull();
    expect(decide([loaded('allow', 'Bash(ls)')], read('ls'))).toBeNull();
  });

  it('a shell command allowed by several rules names the rule covering its first command', () => {
    const first = loaded('allow', 'Bash(git status)');
    const whole = loaded('allow', 'Bash(git:*)');
    expect(decide([first, whole], sh('git status && git push'))).toEqual({
      kind: 'allow',
      rule: first,
    });
  });
});
