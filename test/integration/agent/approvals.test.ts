import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FILE = { 'notes.txt': 'alpha\n' };
const edit = (to: string) => ({
  name: 'file_edit_tool',
  args: { file_path: 'notes.txt', old_string: 'alpha', new_string: to },
});
const read = () => readFileSync(join(h!.project, 'notes.txt'), 'utf8');

describe('approvals in ask mode (the default)', () => {
  it('an edit waits for approval showing its full diff; a denial reaches the model with the reason and nothing is written', async () => {
    h = await Harness.start({ wire: 'openai', files: FILE });
    h.script.push({ toolCalls: [edit('beta')] }, { text: 'Understood, I left it.' });
    const id = await h.newSession();
    const from = await h.send(id, 'change alpha to beta');
    const waiting = await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'run_state' && e.state === 'waiting'),
      'the run to wait',
    );
    const request = ofType(waiting, 'approval_request')[0]!;
    expect(request.tool).toBe('file_edit_tool');
    expect(request.detail).toContain('-alpha');
    expect(request.detail).toContain('+beta');
    expect(ofType(waiting, 'run_state').at(-1)).toMatchObject({
      state: 'waiting',
      reason: 'approval',
    });
    expect(read()).toBe('alpha\n');

    const pending = await h.invoke('agent.pending', { id });
    expect(pending.approvals.map((a) => (a as { approval_id: string }).approval_id)).toEqual([
      request.approval_id,
    ]);
    await h.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'deny',
      reason: 'keep alpha',
    });
    const events = await h.waitRunEnd(id, from);
    expect(read()).toBe('alpha\n');
    const result = ofType(events, 'tool_result')[0]!;
    expect(result.payload).toMatchObject({ kind: 'error', code: 'denied' });
    expect(String(result.payload.message)).toContain('keep alpha');
    expect(h.script.requests[1]!.transcript).toContain('keep alpha');
    expect(ofType(events, 'approval_decision')[0]).toMatchObject({ decision: 'deny', by: 'user' });
  });

  it('an allowed edit runs and the run continues', async () => {
    h = await Harness.start({ wire: 'openai', files: FILE });
    h.script.push({ toolCalls: [edit('beta')] }, { text: 'Changed.' });
    const id = await h.newSession();
    const from = await h.send(id, 'change alpha to beta');
    const waiting = await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval request',
    );
    await h.invoke('agent.decideApproval', {
      id,
      approval_id: ofType(waiting, 'approval_request')[0]!.approval_id,
      decision: 'allow',
    });
    const events = await h.waitRunEnd(id, from);
    expect(read()).toBe('beta\n');
    expect(ofType(events, 'tool_result')[0]!.payload.kind).toBe('diff');
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'idle' });
  });

  it('a decision is refused twice, and an unknown approval id is not found', async () => {
    h = await Harness.start({ wire: 'openai', files: FILE });
    h.script.push({ toolCalls: [edit('beta')] }, { text: 'ok' });
    const id = await h.newSession();
    const from = await h.send(id, 'go');
    const waiting = await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval request',
    );
    const approval_id = ofType(waiting, 'approval_request')[0]!.approval_id;
    await h.invoke('agent.decideApproval', { id, approval_id, decision: 'allow' });
    expect(
      (await h.invokeError('agent.decideApproval', { id, approval_id, decision: 'deny' })).code,
    ).toBe('already_decided');
    expect(
      (await h.invokeError('agent.decideApproval', { id, approval_id: 'a_nope', decision: 'deny' }))
        .code,
    ).toBe('not_found');
    await h.waitRunEnd(id, from);
  });

  it('accept-edits runs edits without asking', async () => {
    h = await Harness.start({
      wire: 'openai',
      files: FILE,
      config: { permission_mode: 'accept-edits' },
    });
    h.script.push({ toolCalls: [edit('gamma')] }, { text: 'ok' });
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'go'));
    expect(read()).toBe('gamma\n');
    expect(ofType(events, 'approval_request')).toHaveLength(0);
  });

  it('a new message while an approval is pending denies it and is addressed instead', async () => {
    h = await Harness.start({ wire: 'openai', files: FILE });
    h.script.push({ toolCalls: [edit('beta')] }, { text: 'Doing the other thing.' });
    const id = await h.newSession();
    const from = await h.send(id, 'change it');
    await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval request',
    );
    await h.send(id, 'no wait, leave the file alone');
    const events = await h.waitRunEnd(id, from);
    expect(read()).toBe('alpha\n');
    expect(ofType(events, 'approval_decision')[0]).toMatchObject({ decision: 'deny', by: 'user' });
    const second = h.script.requests[1]!.transcript;
    expect(second.indexOf('tool_result')).toBeLessThan(second.indexOf('leave the file alone'));
  });

  it('a pending approval survives a host restart and, once allowed, the call runs and the run continues', async () => {
    h = await Harness.start({ wire: 'openai', files: FILE });
    h.script.push({ toolCalls: [edit('delta')] });
    const id = await h.newSession();
    await h.send(id, 'change it');
    const waiting = await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval request',
    );
    const approval_id = ofType(waiting, 'approval_request')[0]!.approval_id;
    await h.restart();
    const pending = await h.invoke('agent.pending', { id });
    expect(pending.approvals).toHaveLength(1);
    const before = (await h.events(id)).length;
    expect(ofType(await h.events(id), 'tool_result')).toHaveLength(0);
    h.script.push({ text: 'Changed after the restart.' });
    await h.invoke('agent.decideApproval', { id, approval_id, decision: 'allow' });
    const events = await h.waitRunEnd(id, before);
    expect(read()).toBe('delta\n');
    expect(ofType(events, 'tool_result')[0]!.payload.kind).toBe('diff');
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('Changed after the restart.');
  });
});
