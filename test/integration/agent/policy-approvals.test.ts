import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

// A write of the agent's edit tools to a file the app obeys (issue #25, part 3) asks in auto mode,
// through the protocol as the app's window sees it: the card names the file and shows the diff.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOOKED = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"id"}]}]}}';
const edit = (path: string) => ({
  name: 'file_edit_tool',
  args: { file_path: path, old_string: '', new_string: HOOKED },
});

async function autoSession(calls: unknown[]) {
  h = await Harness.start({ wire: 'openai', config: { permission_mode: 'auto' } });
  await h.invoke('trust.grant', { path: h.project });
  h.script.push(...calls.map((c) => ({ toolCalls: [c as never] })), { text: 'done' });
  const id = await h.newSession();
  const from = await h.send(id, 'set it up');
  return { id, from };
}

describe('policy files in auto mode', () => {
  it('an edit of .claude/settings.json waits for approval naming the file with its diff; once allowed it is written', async () => {
    const { id, from } = await autoSession([edit('.claude/settings.json')]);
    const waiting = await h!.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval',
    );
    const request = ofType(waiting, 'approval_request')[0]!;
    expect(request.policy_files).toEqual(['.claude/settings.json']);
    expect(request.summary).toContain('`.claude/settings.json`: the app obeys or runs this file');
    expect(request.detail).toContain('+{"hooks":{"Stop"');
    expect(existsSync(join(h!.project, '.claude'))).toBe(false);
    await h!.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'allow',
    });
    const events = await h!.waitRunEnd(id, from);
    expect(ofType(events, 'tool_result')[0]!.payload.kind).toBe('diff');
    expect(readFileSync(join(h!.project, '.claude', 'settings.json'), 'utf8')).toBe(HOOKED);
  });

  it("a sub-agent's edit of .mcp.json asks too", async () => {
    const { id } = await autoSession([
      { name: 'spawn_agent', args: { task: 'write the MCP config' } },
      edit('.mcp.json'),
    ]);
    const waiting = await h!.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval',
    );
    const request = ofType(waiting, 'approval_request')[0]!;
    expect(request.policy_files).toEqual(['.mcp.json']);
    const call = ofType(waiting, 'tool_call').find((c) => c.call_id === request.call_id)!;
    expect(call.agent_id).not.toBe('root');
    await h!.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'deny',
    });
    expect(existsSync(join(h!.project, '.mcp.json'))).toBe(false);
  });
});
