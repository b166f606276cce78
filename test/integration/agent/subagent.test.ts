import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ROOT_ONLY = [
  'update_todos',
  'ask_user_question',
  'spawn_agent',
  'exit_plan_mode',
  'list_projects',
  'switch_project',
];

describe('sub-agents', () => {
  it('run a task with a narrowed tool set and their own context, and report back a result', async () => {
    h = await Harness.start({
      files: { 'config.toml': 'port = 8123\n' },
      config: { permission_mode: 'auto' },
    });
    h.script.push(
      {
        text: 'Delegating.',
        toolCalls: [
          {
            name: 'spawn_agent',
            args: {
              task: 'Find the port in config.toml and report it.',
              description: 'Find the port',
              tools: ['read_file'],
            },
          },
        ],
      },
      { toolCalls: [{ name: 'read_file', args: { path: 'config.toml' } }] },
      { text: 'The port is 8123 (config.toml, line 1).' },
      { text: 'The sub-agent found port 8123.' },
    );
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'what port does it use?'));

    const [root, sub1, sub2, rootAgain] = h.script.requests;
    expect(root!.tools).toContain('spawn_agent');
    expect(sub1!.tools).toEqual(['read_file']);
    expect(sub1!.system).toContain('sub-agent');
    expect(sub1!.transcript).toMatch(/^user: Find the port in config.toml/);
    expect(sub1!.transcript).not.toContain('what port does it use');
    expect(sub2!.transcript).toContain('port = 8123');
    const started = ofType(events, 'subagent');
    expect(started.map((s) => s.state)).toEqual(['started', 'finished']);
    const subId = started[0]!.agent_id;
    expect(subId).toMatch(/^sub_/);
    expect(
      ofType(events, 'tool_call')
        .filter((c) => c.agent_id === subId)
        .map((c) => c.name),
    ).toEqual(['read_file']);
    const report = ofType(events, 'tool_result').find((r) => r.name === 'spawn_agent')!;
    expect(report.payload).toMatchObject({
      kind: 'subagent_result',
      agent_id: subId,
      status: 'finished',
      result: 'The port is 8123 (config.toml, line 1).',
    });
    expect(rootAgain!.transcript).toContain('The port is 8123');
    expect(rootAgain!.transcript).not.toContain('read_file {"path":"config.toml"}');
  });

  it('get none of the root-only tools by default, and cannot be given a tool their parent lacks', async () => {
    h = await Harness.start({ config: { permission_mode: 'auto' } });
    h.script.push(
      { toolCalls: [{ name: 'spawn_agent', args: { task: 'look around' } }] },
      { text: 'nothing here' },
      { toolCalls: [{ name: 'spawn_agent', args: { task: 'x', tools: ['read_file', 'rm_rf'] } }] },
      { text: 'ok' },
    );
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'go', ['generative_ui', 'ask_user']));
    const subTools = h.script.requests[1]!.tools;
    expect(subTools).toContain('read_file');
    for (const name of ROOT_ONLY) expect(subTools).not.toContain(name);
    const refused = ofType(events, 'tool_result')[1]!;
    expect(refused.payload).toMatchObject({ kind: 'error', code: 'invalid_args' });
    expect(String(refused.payload.message)).toContain('rm_rf');
  });
});
