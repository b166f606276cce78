import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../shared/protocol/events';
import { buildScriptedAgent } from '../../helpers/acp-agent-build';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// `mewbo run --agent NAME` (issue 30 parts 1 and 3): a headless session on an external ACP agent.
// Nobody is there to approve: in ask mode the agent's permission request is answered with its
// reject option, in auto mode with its allow option, each decision logged by policy; its client
// calls are refused where they would need an approval (a policy file's write, in every mode).

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

async function world(turns: unknown[][] = [[permission]]) {
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
  writeFileSync(script, JSON.stringify({ record, turns }));
  const agentJs = await buildScriptedAgent();
  writeFileSync(
    join(home, 'configs', 'app.json'),
    JSON.stringify({
      agents: { scripted: { command: process.execPath, args: [agentJs, script] } },
    }),
  );
  const steps = () =>
    readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { step?: string; result?: unknown; error?: string })
      .filter((r) => r.step);
  const answers = () => steps().flatMap((r) => (r.step === 'permission' ? [r.result] : []));
  return { home, project, answers, steps };
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

  it('refuses the agent’s write in ask mode, and its write to a policy file even in auto mode: nobody is there to approve', async () => {
    const { home, project, steps } = await world([
      [
        { write: { path: 'ROOT/plain.txt', content: 'x' } },
        { write: { path: 'ROOT/.git/config', content: '[core]\n\thooksPath = /tmp\n' } },
      ],
    ]);
    const ask = await runMewbo(['run', '--project', project, '--agent', 'scripted', 'go'], {
      env: { MEWBO_HOME: home },
    });
    expect(ask.code).toBe(0);
    const auto = await runMewbo(
      ['run', '--project', project, '--agent', 'scripted', '--permission-mode', 'auto', 'go'],
      { env: { MEWBO_HOME: home } },
    );
    expect(auto.code).toBe(0);
    const [askPlain, askPolicy, autoPlain, autoPolicy] = steps();
    expect(askPlain!.error).toMatch(/Edits need approval in "ask" mode, and this headless run/);
    expect(askPolicy!.error).toMatch(/this headless run has nobody to approve it/);
    expect(autoPlain).toEqual({ step: 'write', result: {} });
    expect(autoPolicy!.error).toMatch(
      /`\.git\/config` is a file the app obeys or runs.*this headless run has nobody to approve it.*Edit\(\.git\/config\)/,
    );
    expect(existsSync(join(project, '.git', 'config'))).toBe(false);
    expect(
      jsonLines<SessionEvent>(auto.stdout).find((e) => e.type === 'approval_decision'),
    ).toMatchObject({
      decision: 'deny',
      by: 'policy',
    });
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
