import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Harness, ofType } from '../../integration/agent/harness';
import type { ScriptStep } from '../../helpers/fake-model-script';
import { tempDir } from '../../helpers/temp';

// Route 10 of the trust boundary: approval is decided from a call's arguments, not its tool's
// name. The attack: get one harmless-looking background shell approved (an interactive bash),
// then run anything by typing into it with shell_session_tool, which used to need no approval.
// A real host, a real PTY, a scripted model.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function script(): ScriptStep[] {
  return [
    {
      toolCalls: [{ name: 'aider_shell_tool', args: { command: 'bash', run_in_background: true } }],
    },
    (req) => {
      const started = /"shell_id":"(shell_\d+)"/.exec(req.transcript);
      return {
        toolCalls: [
          {
            name: 'shell_session_tool',
            args: {
              operation: 'write',
              shell_id: started?.[1] ?? 'missing',
              input: 'touch pwned && echo typed-$((6*7))',
              wait_ms: 2000,
            },
          },
        ],
      };
    },
    { text: 'done' },
  ];
}

async function answerApprovals(
  harness: Harness,
  id: string,
  decide: (tool: string) => 'allow' | 'deny',
  count: number,
): Promise<string[]> {
  const answered: string[] = [];
  for (let n = 1; n <= count; n++) {
    const events = await harness.waitFor(
      id,
      (ev) => ofType(ev, 'approval_request').length >= n,
      `approval ${n}`,
    );
    const request = ofType(events, 'approval_request')[n - 1]!;
    answered.push(`${request.tool}: ${request.detail}`);
    await harness.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: decide(request.tool),
    });
  }
  return answered;
}

describe('typing into an approved shell', () => {
  it('runs code: with nobody asked (auto mode) the typed command runs', async () => {
    h = await Harness.start({ wire: 'openai', config: { permission_mode: 'auto' } });
    h.script.push(...script());
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'go'));
    expect(ofType(events, 'approval_request')).toHaveLength(0);
    expect(existsSync(join(h.project, 'pwned'))).toBe(true);
  });

  it('in ask mode asks like a shell command, showing what is typed; denied, nothing runs', async () => {
    h = await Harness.start({ wire: 'openai' });
    h.script.push(...script());
    const id = await h.newSession();
    const from = await h.send(id, 'go');
    const asked = await answerApprovals(
      h,
      id,
      (tool) => (tool === 'aider_shell_tool' ? 'allow' : 'deny'),
      2,
    );
    expect(asked[1]).toMatch(/^shell_session_tool: touch pwned && echo typed-\$\(\(6\*7\)\)/);
    const events = await h.waitRunEnd(id, from);
    const typed = ofType(events, 'tool_result').find((r) => r.name === 'shell_session_tool')!;
    expect(typed.payload).toMatchObject({ kind: 'error', code: 'denied' });
    expect(existsSync(join(h.project, 'pwned'))).toBe(false);
  });

  it('in ask mode, approved, the typed command runs', async () => {
    h = await Harness.start({ wire: 'openai' });
    h.script.push(...script());
    const id = await h.newSession();
    const from = await h.send(id, 'go');
    await answerApprovals(h, id, () => 'allow', 2);
    const events = await h.waitRunEnd(id, from);
    const typed = ofType(events, 'tool_result').find((r) => r.name === 'shell_session_tool')!;
    expect(String(typed.payload.output)).toContain('typed-42');
    expect(existsSync(join(h.project, 'pwned'))).toBe(true);
  });
});

describe('switch_project widens what the agent reaches', () => {
  async function switchRun(mode: 'auto' | 'ask') {
    const harness = await Harness.start({ wire: 'openai', config: { permission_mode: mode } });
    const other = tempDir('mewbo-attack-other-');
    harness.cleanups.push(other.cleanup);
    const { project } = await harness.invoke('projects.openFolder', { path: other.dir });
    harness.script.push(
      { toolCalls: [{ name: 'switch_project', args: { project: project.key } }] },
      { text: 'done' },
    );
    const id = await harness.newSession();
    return { harness, id, key: project.key, from: await harness.send(id, 'go elsewhere') };
  }

  it('with nobody asked (auto mode) the session moves to the other project', async () => {
    const run = await switchRun('auto');
    h = run.harness;
    await h.waitRunEnd(run.id, run.from);
    const listed = (await h.invoke('sessions.list', {})).sessions.find((s) => s.id === run.id);
    expect(listed!.project).toBe(run.key);
  });

  it('in ask mode it asks; denied, the session stays in its project', async () => {
    const run = await switchRun('ask');
    h = run.harness;
    const asked = await answerApprovals(h, run.id, () => 'deny', 1);
    expect(asked[0]).toMatch(/^switch_project: /);
    await h.waitRunEnd(run.id, run.from);
    const listed = (await h.invoke('sessions.list', {})).sessions.find((s) => s.id === run.id);
    expect(listed!.project).toBe('proj');
  });
});
