import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from '../agent/harness';
import type { RecordedRequest, ScriptedReply } from '../../helpers/fake-model-script';
import type { ShellStreamFrame } from '../../../shared/protocol/shell-stream';
import type { SessionEvent } from '../../../shared/protocol/events';

// Issue 28 part 2 through the protocol: four sessions on one repository, each in its own
// worktree, each with a background shell (its console), running at once against the scripted
// model. One session's foreground shell blocks and another's model call hangs; the other two
// edit the same file their own way, run their shells and finish meanwhile. Coming back to each
// session (its log, its shells, its console from the start) finds everything it did.

const CLIENT = { clientId: 'test', transport: 'local' as const };
const TASKS = ['alpha', 'beta', 'gamma', 'delta'] as const;
type Task = (typeof TASKS)[number];

const edit = (who: string) =>
  `notes.txt\n\`\`\`\n<<<<<<< SEARCH\nbase\n=======\n${who} was here\n>>>>>>> REPLACE\n\`\`\`\n`;

/** Each session's turns, told apart by the task its first message names. */
function turns(seen: Map<string, number>) {
  return (req: RecordedRequest): ScriptedReply => {
    const task = (/Task (\w+)/.exec(req.transcript)?.[1] ?? '?') as Task;
    const n = seen.get(task) ?? 0;
    seen.set(task, n + 1);
    if (n === 0)
      return {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: {
              command: `echo ${task}-console-1; echo ${task}-console-2; exec sleep 300`,
              run_in_background: true,
            },
          },
        ],
      };
    if (task === 'alpha' && n === 1)
      return {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: { command: 'while [ ! -e release ]; do sleep 0.05; done; echo released' },
          },
        ],
      };
    if (task === 'delta' && n === 1) return { text: 'Thinking slowly', hang: true };
    if ((task === 'beta' || task === 'gamma') && n === 1)
      return { toolCalls: [{ name: 'aider_edit_block_tool', args: { content: edit(task) } }] };
    if ((task === 'beta' || task === 'gamma') && n === 2)
      return { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'cat notes.txt' } }] };
    return { text: `Finished ${task}.` };
  };
}

const lastRunState = (events: SessionEvent[]) => ofType(events, 'run_state').at(-1)?.state;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('four worktree sessions on one repository at once', () => {
  it("run side by side: a blocked shell or a hung model call of one holds up none of the others, and each one's log, shells and console are all there when it is opened again", async () => {
    h = await Harness.start({
      config: { permission_mode: 'auto' },
      files: { 'notes.txt': 'base\n' },
    });
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
        cwd,
        encoding: 'utf8',
      });
    git(h.project, 'init', '-q', '-b', 'main');
    git(h.project, 'add', '-A');
    git(h.project, 'commit', '-q', '-m', 'initial');
    const seen = new Map<string, number>();
    for (let i = 0; i < 16; i++) h.script.push(turns(seen));

    const ids = {} as Record<Task, string>;
    const roots = {} as Record<Task, string>;
    for (const task of TASKS) {
      const { session } = await h.invoke('sessions.create', { project: 'proj', worktree: true });
      ids[task] = session.id;
      roots[task] = (await h.host.sessions.get(session.id)).meta.root!;
    }
    expect(new Set(Object.values(roots)).size).toBe(4);
    // All four at once: nothing is awaited between the sends.
    await Promise.all(TASKS.map((t) => h!.send(ids[t], `Task ${t}: do your part`)));

    // Beta and gamma finish while alpha's shell is blocked and delta's model has not answered.
    await Promise.all(['beta', 'gamma'].map((t) => h!.waitRunEnd(ids[t as Task], 0, 60_000)));
    await h.waitFor(
      ids.alpha,
      (ev) => ofType(ev, 'tool_call').length === 2,
      "alpha's blocking shell",
      60_000,
    );
    await h.waitFor(
      ids.delta,
      (ev) => ev.some((e) => e.type === 'tool_result'),
      "delta's console",
      60_000,
    );
    expect(lastRunState(await h.events(ids.alpha))).toBe('running');
    expect(lastRunState(await h.events(ids.delta))).toBe('running');
    for (const t of ['beta', 'gamma'] as const) {
      const events = await h.events(ids[t]);
      expect(lastRunState(events)).toBe('idle');
      expect(readFileSync(join(roots[t], 'notes.txt'), 'utf8')).toBe(`${t} was here\n`);
      expect(JSON.stringify(ofType(events, 'tool_result').at(-1))).toContain(`${t} was here`);
    }
    expect(readFileSync(join(h.project, 'notes.txt'), 'utf8')).toBe('base\n');

    // Opened again, each session has all it did: its log, its console from the first byte.
    for (const t of TASKS) {
      const events = await h.events(ids[t]);
      expect(ofType(events, 'user_message')[0]!.text).toBe(`Task ${t}: do your part`);
      const { shells } = await h.invoke('shells.list', { session_id: ids[t] });
      // Its own background shell, running, in its own worktree (alpha's blocked one is listed too).
      const consoles = shells.filter((s) => s.background);
      expect(consoles).toHaveLength(1);
      expect(consoles[0]!.status).toBe('running');
      expect(consoles[0]!.cwd).toBe(roots[t]);
      const frames: ShellStreamFrame[] = [];
      const text = () =>
        frames.flatMap((f) => (f.type === 'shell_output' ? [f.data] : [])).join('');
      const sub = await h.host.router.subscribe(
        `shell:${ids[t]}:${consoles[0]!.shell_id}`,
        0,
        (f) => frames.push(f as ShellStreamFrame),
        CLIENT,
      );
      await expect.poll(text).toMatch(new RegExp(`${t}-console-1\r?\n${t}-console-2`));
      for (const other of TASKS.filter((o) => o !== t)) expect(text()).not.toContain(other);
      await sub.dispose();
    }

    // Alpha's shell is let go in its own worktree; delta is stopped. Both end, nothing lost.
    writeFileSync(join(roots.alpha, 'release'), '');
    const alpha = await h.waitRunEnd(ids.alpha, 0, 60_000);
    expect(JSON.stringify(ofType(alpha, 'tool_result'))).toContain('released');
    await h.invoke('sessions.stop', { id: ids.delta });
    expect(lastRunState(await h.waitRunEnd(ids.delta, 0, 60_000))).toBe('stopped');
  }, 180_000);
});
