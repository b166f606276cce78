import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunHarness } from './run-harness';

// The user's global instructions and nested ones, through `mewbo run` against a scripted model.

let h: RunHarness;
beforeEach(async () => {
  h = await RunHarness.start();
});
afterEach(async () => {
  await h.close();
});

const read = (path: string) => ({ name: 'read_file', args: { path } });
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('instructions', () => {
  it("the user's $MEWBO_HOME/AGENTS.md and ~/.claude/CLAUDE.md are in every project's system prompt", async () => {
    h.write('AGENTS.md', 'GLOBAL-AGENTS-MARKER');
    h.write('.claude/CLAUDE.md', 'CLAUDE-HOME-MARKER');
    h.fake.script.push({ text: 'ok' });
    await h.run(['hi']);
    expect(h.fake.requests[0]!.system).toContain('GLOBAL-AGENTS-MARKER');
    expect(h.fake.requests[0]!.system).toContain('CLAUDE-HOME-MARKER');
  });

  it("a subdirectory's CLAUDE.md loads once, when the agent first reads there", async () => {
    h.write('sub/deeper/CLAUDE.md', 'NESTED-MARKER', 'project');
    h.write('sub/deeper/a.txt', 'a', 'project');
    h.write('sub/deeper/b.txt', 'b', 'project');
    h.write('top.txt', 't', 'project');
    h.fake.script.push(
      { toolCalls: [read('top.txt')] },
      { toolCalls: [read('sub/deeper/a.txt')] },
      { toolCalls: [read('sub/deeper/b.txt')] },
      { text: 'ok' },
    );
    const r = await h.run(['read things']);
    expect(r.code).toBe(0);
    const all = (i: number) => h.fake.requests[i]!.system + h.fake.requests[i]!.transcript;
    expect(all(0)).not.toContain('NESTED-MARKER');
    expect(all(1)).not.toContain('NESTED-MARKER');
    expect(count(all(2), 'NESTED-MARKER')).toBe(1);
    expect(count(all(3), 'NESTED-MARKER')).toBe(1);
    expect(r.events.filter((e) => e.type === 'instructions_loaded')).toHaveLength(1);
  });

  it('a nested CLAUDE.md that is a symlink out of the project is not read', async () => {
    h.write('outside-secret.md', 'OUTSIDE-SECRET');
    mkdirSync(join(h.project, 'sub'), { recursive: true });
    symlinkSync(join(h.home, 'outside-secret.md'), join(h.project, 'sub', 'CLAUDE.md'));
    h.write('sub/a.txt', 'a', 'project');
    h.fake.script.push({ toolCalls: [read('sub/a.txt')] }, { text: 'ok' });
    await h.run(['read']);
    expect(h.fake.requests[1]!.transcript).not.toContain('OUTSIDE-SECRET');
  });
});
