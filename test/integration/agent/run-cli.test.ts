import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { FakeOpenAi } from '../../helpers/fake-openai';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// `mewbo run` as a trigger would call it: the built CLI, a temp $MEWBO_HOME, a fake provider.

/** One JSON line of `mewbo run`: an event (durable with seq/ts, or a transient delta). */
type Line = { type: string; seq?: number; [field: string]: unknown };

interface RunResult {
  code: number | null;
  events: Line[];
  stderr: string;
}

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;
beforeEach(async () => {
  home = tempDir('mewbo-run-home-');
  project = tempDir('mewbo-run-proj-');
  writeFileSync(join(project.dir, 'a.txt'), 'one\n');
  fake = await FakeAnthropic.start();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
  project.cleanup();
});

async function mewboRun(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const r = await runMewbo(['run', ...args], {
    env: {
      MEWBO_HOME: home.dir,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      ...env,
    },
  });
  return { code: r.code, events: jsonLines<Line>(r.stdout), stderr: r.stderr };
}

const EDIT = {
  name: 'aider_edit_block_tool',
  args: { content: 'a.txt\n```\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n' },
};

describe('mewbo run', () => {
  it('streams every event as a JSON line and exits 0 when the run finished; in auto mode the edit is made', async () => {
    fake.script.push({ toolCalls: [EDIT] }, { text: 'Changed one to two.' });
    const r = await mewboRun([
      '--project',
      project.dir,
      '--permission-mode',
      'auto',
      'change one to two',
    ]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('two\n');
    const types = r.events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'session_created',
        'mode_change',
        'user_message',
        'tool_call',
        'tool_result',
        'assistant_delta',
        'assistant_message',
        'usage',
      ]),
    );
    expect(r.events.filter((e) => e.seq !== undefined).map((e) => e.seq)).toEqual([
      ...Array(r.events.filter((e) => e.seq !== undefined).length).keys(),
    ]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run_state', state: 'idle', reason: 'finished' });
  });

  it("each model call's usage is a JSON line: input, output, cache reads and writes, the window and the cost", async () => {
    await fake.close();
    fake = await FakeAnthropic.start({ cache: { minTokens: 1 } });
    fake.script.push(
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'one' },
    );
    const r = await mewboRun(['--project', project.dir, 'what is in a.txt?']);
    expect(r.code).toBe(0);
    const usage = r.events.filter((e) => e.type === 'usage') as Record<string, unknown>[];
    expect(usage).toHaveLength(2);
    for (const u of usage)
      expect(u).toMatchObject({
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        cache_read_tokens: expect.any(Number),
        cache_write_tokens: expect.any(Number),
        context_window: 200_000,
        compact_at_tokens: expect.any(Number),
        cost_usd: expect.any(Number),
      });
    expect(usage[0]!.cache_write_tokens).toBeGreaterThan(0);
    expect(usage[1]!.cache_read_tokens).toBeGreaterThan(0);
  });

  it('in ask mode a call that needs approval is denied with a reason the model sees, and nothing is written', async () => {
    fake.script.push({ toolCalls: [EDIT] }, { text: 'I could not edit: approval is needed.' });
    const r = await mewboRun(['--project', project.dir, 'change one to two']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('one\n');
    const decision = r.events.find((e) => e.type === 'approval_decision');
    expect(decision).toMatchObject({ decision: 'deny', by: 'policy' });
    const result = r.events.find((e) => e.type === 'tool_result');
    expect(result!.payload).toMatchObject({ kind: 'error', code: 'approval_required' });
    expect(fake.requests[1]!.transcript).toMatch(/headless run has nobody to approve/);
  });

  it('is headless: no ask_user_question, no panels, and the system prompt says so', async () => {
    fake.script.push({ text: 'hi' });
    const r = await mewboRun(['--project', project.dir, 'hello']);
    expect(r.code).toBe(0);
    const offered = fake.requests[0]!.tools;
    expect(offered).not.toContain('ask_user_question');
    expect(offered).not.toContain('present_ui');
    expect(offered).toContain('read_file');
    expect(fake.requests[0]!.system).toContain('headless');
  });

  it('--model picks the provider by name: an OpenAI-compatible server for gpt-*', async () => {
    const openai = await FakeOpenAi.start({ apiKey: 'sk-test' });
    try {
      openai.script.push({ text: 'from openai' });
      const r = await mewboRun(['--project', project.dir, '--model', 'gpt-5-mini', 'hello'], {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
      });
      expect(r.code).toBe(0);
      expect(openai.requests[0]!.body.model).toBe('gpt-5-mini');
      expect(openai.requests[0]!.tools).toContain('file_edit_tool');
      expect(fake.requests).toHaveLength(0);
    } finally {
      await openai.close();
    }
  });

  it('in plan mode the plan is recorded for nobody to approve, and no tool that writes is offered', async () => {
    fake.script.push(
      { toolCalls: [{ name: 'exit_plan_mode', args: { plan: '1. edit a.txt' } }] },
      { text: 'Plan: 1. edit a.txt' },
    );
    const r = await mewboRun(['--project', project.dir, '--permission-mode', 'plan', 'plan it']);
    expect(r.code).toBe(0);
    expect(r.events.find((e) => e.type === 'plan')).toMatchObject({ text: '1. edit a.txt' });
    expect(r.events.find((e) => e.type === 'tool_result')!.payload).toMatchObject({
      kind: 'plan_decision',
      decision: 'recorded',
    });
    for (const writer of ['aider_edit_block_tool', 'aider_shell_tool', 'update_todos'])
      expect(fake.requests[0]!.tools).not.toContain(writer);
  });

  it('exits 1 with an error event when the run fails (no model set)', async () => {
    const r = await mewboRun(['--project', project.dir, 'hello'], {
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_BASE_URL: '',
    });
    expect(r.code).toBe(1);
    expect(r.events.find((e) => e.type === 'error')).toMatchObject({ code: 'no_model' });
  });

  it('exits 2 on bad usage, naming what is wrong', async () => {
    const noPrompt = await mewboRun(['--project', project.dir]);
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toMatch(/prompt is required/);
    const badMode = await mewboRun(['--project', project.dir, '--permission-mode', 'yolo', 'x']);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toMatch(/yolo/);
    const noDir = await mewboRun(['--project', join(project.dir, 'missing'), 'x']);
    expect(noDir.code).toBe(2);
  });
});
