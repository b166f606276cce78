import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FILES = { 'app.py': 'print("v1")\n' };
const EDIT = {
  name: 'aider_edit_block_tool',
  args: {
    content:
      'app.py\n```\n<<<<<<< SEARCH\nprint("v1")\n=======\nprint("v2")\n>>>>>>> REPLACE\n```\n',
  },
};

async function planSession(h: Harness) {
  const id = await h.newSession();
  await h.invoke('sessions.setMode', { id, mode: 'plan' });
  const from = await h.send(id, 'bump the version');
  const ev = await h.waitFor(id, (e) => e.some((x) => x.type === 'plan'), 'the plan');
  return { id, from, plan: ofType(ev, 'plan')[0]! };
}

describe('plan mode', () => {
  it('offers read-only tools only; an approved plan switches the session back to act mode and the model carries it out', async () => {
    h = await Harness.start({ files: FILES, config: { permission_mode: 'auto' } });
    h.script.push(
      { toolCalls: [{ name: 'read_file', args: { path: 'app.py' } }] },
      { toolCalls: [{ name: 'exit_plan_mode', args: { plan: '1. Change v1 to v2 in app.py' } }] },
      { toolCalls: [EDIT] },
      { text: 'Bumped to v2.' },
    );
    const { id, from, plan } = await planSession(h);
    const planTools = h.script.requests[0]!.tools;
    expect(planTools).toEqual(
      expect.arrayContaining(['read_file', 'exit_plan_mode', 'aider_list_dir_tool']),
    );
    for (const writer of ['aider_edit_block_tool', 'file_edit_tool', 'update_todos', 'spawn_agent'])
      expect(planTools).not.toContain(writer);
    expect(h.script.requests[0]!.system).toContain('plan mode');
    expect(plan.text).toContain('Change v1 to v2');
    expect(readFileSync(join(h.project, 'app.py'), 'utf8')).toBe('print("v1")\n');

    await h.invoke('agent.decidePlan', { id, plan_id: plan.plan_id, decision: 'approve' });
    const events = await h.waitRunEnd(id, from);
    expect(ofType(events, 'mode_change').at(-1)!.mode).toBe('auto');
    expect(
      ofType(events, 'tool_result').find((r) => r.name === 'exit_plan_mode')!.payload,
    ).toMatchObject({ decision: 'approve', mode: 'auto' });
    expect(h.script.requests[2]!.tools).toContain('aider_edit_block_tool');
    expect(h.script.requests[2]!.tools).not.toContain('exit_plan_mode');
    expect(readFileSync(join(h.project, 'app.py'), 'utf8')).toBe('print("v2")\n');
  });

  it('a rejected plan returns the feedback and the session stays in plan mode', async () => {
    h = await Harness.start({ files: FILES, config: { permission_mode: 'auto' } });
    h.script.push(
      { toolCalls: [{ name: 'exit_plan_mode', args: { plan: 'Rewrite everything' } }] },
      { text: 'I will revise the plan.' },
    );
    const { id, from, plan } = await planSession(h);
    await h.invoke('agent.decidePlan', {
      id,
      plan_id: plan.plan_id,
      decision: 'reject',
      feedback: 'smaller steps please',
    });
    const events = await h.waitRunEnd(id, from);
    expect(ofType(events, 'mode_change').at(-1)!.mode).toBe('plan');
    expect(ofType(events, 'tool_result')[0]!.payload).toMatchObject({
      decision: 'reject',
      feedback: 'smaller steps please',
    });
    expect(h.script.requests[1]!.transcript).toContain('smaller steps please');
    expect(h.script.requests[1]!.tools).toContain('exit_plan_mode');
  });

  it('a pending plan survives a host restart and its approval resumes the run', async () => {
    h = await Harness.start({ files: FILES, config: { permission_mode: 'auto' } });
    h.script.push({ toolCalls: [{ name: 'exit_plan_mode', args: { plan: 'Change v1 to v2' } }] });
    const { id, plan } = await planSession(h);
    await h.restart();
    expect((await h.invoke('agent.pending', { id })).plans).toHaveLength(1);
    const before = (await h.events(id)).length;
    h.script.push({ toolCalls: [EDIT] }, { text: 'Done after restart.' });
    await h.invoke('agent.decidePlan', { id, plan_id: plan.plan_id, decision: 'approve' });
    const events = await h.waitRunEnd(id, before);
    expect(readFileSync(join(h.project, 'app.py'), 'utf8')).toBe('print("v2")\n');
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('Done after restart.');
  });
});
