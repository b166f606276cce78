import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../shared/protocol/events';
import { buildScriptedAgent } from '../../helpers/acp-agent-build';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// `mewbo run --agent NAME` (issue 30 part 1): a headless session on an external ACP agent. Nobody
// is there to approve: in ask mode the agent's permission request is answered with its reject
// option, in auto mode with its allow option, each decision logged by policy.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const permission = {
  permission: {
    toolCall: { toolCallId: 'sh-1', title: 'Run make', kind: 'execute' },
    options: [
      { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  },
};

async function world() {
  const t = tempDir('mewbo-acp-run-');
  cleanups.push(t.cleanup);
  const home = join(t.dir, 'home');
  const project = join(t.dir, 'project');
  mkdirSync(join(home, 'configs'), { recursive: true });
  mkdirSync(project);
  // Beside, not around, $MEWBO_HOME: the confined agent may not write where the app's home is.
  const side = tempDir('mewbo-acp-run-script-');
  cleanups.push(side.cleanup);
  const script = join(side.dir, 'script.json');
  const record = join(side.dir, 'record.jsonl');
  writeFileSync(script, JSON.stringify({ record, turns: [[permission]] }));
  const agentJs = await buildScriptedAgent();
  writeFileSync(
    join(home, 'configs', 'app.json'),
    JSON.stringify({
      agents: { scripted: { command: process.execPath, args: [agentJs, script] } },
    }),
  );
  const answers = () =>
    readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { step?: string; result?: unknown })
      .filter((r) => r.step === 'permission')
      .map((r) => r.result);
  return { home, project, answers };
}

describe('mewbo run --agent', () => {
  it('answers the agent’s permission request with its reject option in ask mode, its allow option in auto', async () => {
    const { home, project, answers } = await world();
    const ask = await runMewbo(['run', '--project', project, '--agent', 'scripted', 'build'], {
      env: { MEWBO_HOME: home },
    });
    expect(ask.code).toBe(0);
    const events = jsonLines<SessionEvent>(ask.stdout);
    expect(events[0]).toMatchObject({ type: 'session_created', agent: 'scripted' });
    expect(events.find((e) => e.type === 'approval_decision')).toMatchObject({
      decision: 'deny',
      by: 'policy',
      option: 'no',
    });
    const auto = await runMewbo(
      ['run', '--project', project, '--agent', 'scripted', '--permission-mode', 'auto', 'build'],
      {
        env: { MEWBO_HOME: home },
      },
    );
    expect(auto.code).toBe(0);
    expect(answers()).toEqual([
      { outcome: { outcome: 'selected', optionId: 'no' } },
      { outcome: { outcome: 'selected', optionId: 'ok' } },
    ]);
  });

  it('refuses an agent that is not there, saying how to add one', async () => {
    const { home, project } = await world();
    const r = await runMewbo(['run', '--project', project, '--agent', 'nope', 'build'], {
      env: { MEWBO_HOME: home },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no agent 'nope'");
    expect(r.stderr).toContain('agents.NAME');
  });
});
