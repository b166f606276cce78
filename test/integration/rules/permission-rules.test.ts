import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunHarness, resultsOf, shell } from './run-harness';

// Permission rules from configs/app.json, through `mewbo run` against a scripted model. Each
// defence first shows the call going through (or being refused) without the rule, so the test
// cannot pass by the rule being ignored.

const FENCE = '```';
let h: RunHarness;
beforeEach(async () => {
  h = await RunHarness.start();
});
afterEach(async () => {
  await h.close();
});

describe('permission rules in mewbo run', () => {
  it('an allow rule lets a shell command run in ask mode, where it is refused without the rule', async () => {
    h.fake.script.push({ toolCalls: [shell('echo hello world')] }, { text: 'ok' });
    const before = await h.run(['say hello']);
    expect(resultsOf(before)[0]).toMatchObject({ kind: 'error', code: 'approval_required' });

    h.userConfig({ permissions: { allow: ['Bash(echo hello:*)'] } });
    h.fake.script.push({ toolCalls: [shell('echo hello world')] }, { text: 'ok' });
    const after = await h.run(['say hello']);
    expect(after.code).toBe(0);
    const result = resultsOf(after)[0]!;
    expect(result.kind).toBe('shell');
    expect(JSON.stringify(result)).toContain('hello world');
    expect(after.events.some((e) => e.type === 'approval_request')).toBe(false);
  });

  it('a deny rule blocks a command in auto mode, which runs it without the rule', async () => {
    h.fake.script.push({ toolCalls: [shell('touch made-1.txt')] }, { text: 'ok' });
    await h.run(['--permission-mode', 'auto', 'make it']);
    expect(existsSync(join(h.project, 'made-1.txt'))).toBe(true);

    h.userConfig({ permissions: { deny: ['aider_shell_tool(touch:*)'] } });
    h.fake.script.push({ toolCalls: [shell('touch made-2.txt')] }, { text: 'ok' });
    const r = await h.run(['--permission-mode', 'auto', 'make it']);
    expect(existsSync(join(h.project, 'made-2.txt'))).toBe(false);
    expect(resultsOf(r)[0]).toMatchObject({ kind: 'error', code: 'denied_by_rule' });
    expect(h.fake.requests.at(-1)!.transcript).toContain('aider_shell_tool(touch:*)');
  });

  it('a compound command matches an allow rule only if every part does', async () => {
    h.userConfig({ permissions: { allow: ['Bash(echo:*)'] } });
    h.fake.script.push(
      {
        toolCalls: [
          shell('echo a && touch sneaky-1.txt'),
          shell('echo a; echo b | echo c'),
          shell('echo $(touch sneaky-2.txt)'),
          shell('echo "$(touch sneaky-3.txt)"'),
          shell('echo `touch sneaky-4.txt`'),
          shell('echo a\ntouch sneaky-5.txt'),
        ],
      },
      { text: 'ok' },
    );
    const r = await h.run(['go']);
    const results = resultsOf(r);
    expect(results[0]).toMatchObject({ code: 'approval_required' });
    expect(results[1]!.kind).toBe('shell');
    for (const i of [2, 3, 4, 5]) expect(results[i]).toMatchObject({ code: 'approval_required' });
    for (const n of [1, 2, 3, 4, 5])
      expect(existsSync(join(h.project, `sneaky-${n}.txt`))).toBe(false);
  });

  it('deny beats allow, and a deny rule catches one part of a compound command', async () => {
    h.userConfig({
      permissions: { allow: ['Bash'], deny: ['Bash(rm:*)'] },
    });
    h.write('keep.txt', 'x', 'project');
    h.fake.script.push({ toolCalls: [shell('echo hi && rm keep.txt')] }, { text: 'ok' });
    const r = await h.run(['--permission-mode', 'auto', 'go']);
    expect(resultsOf(r)[0]).toMatchObject({ code: 'denied_by_rule' });
    expect(existsSync(join(h.project, 'keep.txt'))).toBe(true);
  });

  it('a path rule allows edits under a directory only', async () => {
    h.userConfig({ permissions: { allow: ['Edit(docs/**)'] } });
    h.write('docs/a.md', 'one\n', 'project');
    h.write('src/a.ts', 'one\n', 'project');
    const edit = (file: string) => ({
      name: 'aider_edit_block_tool',
      args: {
        content: `${file}\n${FENCE}\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n${FENCE}\n`,
      },
    });
    h.fake.script.push({ toolCalls: [edit('docs/a.md'), edit('src/a.ts')] }, { text: 'ok' });
    const r = await h.run(['edit']);
    const results = resultsOf(r);
    expect(results[0], JSON.stringify(results[0])).not.toMatchObject({ kind: 'error' });
    expect(results[1]).toMatchObject({ code: 'approval_required' });
    expect(readFileSync(join(h.project, 'docs/a.md'), 'utf8')).toBe('two\n');
    expect(readFileSync(join(h.project, 'src/a.ts'), 'utf8')).toBe('one\n');
  });

  it('a malformed rule is a warning naming the file and line, and the other rules still load', async () => {
    h.write(
      'configs/app.json',
      '{\n  "permissions": {\n    "allow": [\n      "Bash(echo",\n      "Bash(echo hi:*)"\n    ]\n  }\n}\n',
    );
    h.fake.script.push({ toolCalls: [shell('echo hi there')] }, { text: 'ok' });
    const r = await h.run(['go']);
    expect(r.stderr).toMatch(/warning: .*configs\/app\.json:4: permissions\.allow: "Bash\(echo"/);
    expect(resultsOf(r)[0]!.kind).toBe('shell');
  });
});
