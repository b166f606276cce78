import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

// A session's root is checked wherever a run starts (issue #25, part 5): a meta.json edited by
// hand while the app was closed to a root no session may act in ($MEWBO_HOME, the user's home)
// is refused with the reason, through the protocol, before hooks or tools run.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function editRoot(harness: Harness, id: string, root: string): void {
  const file = join(harness.home, 'sessions', id, 'meta.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), root }));
}

describe("a session's root", () => {
  it('a message to a session whose root was edited to $MEWBO_HOME is refused with the reason; no hook runs and no model is asked', async () => {
    h = await Harness.start();
    const marker = join(h.home, 'hook-ran');
    await h.host.dispose();
    writeFileSync(
      join(h.home, 'configs', 'app.json'),
      JSON.stringify({
        projects: { proj: { path: h.project } },
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch '${marker}'` }] }] },
      }),
    );
    await h.restart();
    const id = await h.newSession();
    await h.host.dispose();
    editRoot(h, id, h.home);
    await h.restart();
    const err = await h.invokeError('sessions.send', { id, text: 'hi', capabilities: [] });
    expect(err.code).toBe('forbidden_root');
    expect(err.message).toContain(`${h.home} cannot be a session's project root`);
    expect(existsSync(marker)).toBe(false);
    expect(h.script.requests).toHaveLength(0);
  });

  it('an approval decided after the root was edited to the user home does not run its call: the run fails with the reason', async () => {
    h = await Harness.start({ wire: 'openai', files: { 'notes.txt': 'alpha\n' } });
    h.script.push({
      toolCalls: [
        {
          name: 'file_edit_tool',
          args: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta' },
        },
      ],
    });
    const id = await h.newSession();
    await h.send(id, 'edit');
    const waiting = await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval',
    );
    const approvalId = ofType(waiting, 'approval_request')[0]!.approval_id;
    await h.host.dispose();
    // The user's home is $HOME of the host (the harness's temp home); the project lies elsewhere.
    editRoot(h, id, h.env.HOME!);
    await h.restart();
    const from = (await h.events(id)).length;
    await h.invoke('agent.decideApproval', { id, approval_id: approvalId, decision: 'allow' });
    const events = await h.waitRunEnd(id, from);
    expect(ofType(events, 'error').at(-1)).toMatchObject({ code: 'forbidden_root' });
    expect(ofType(events, 'run_state').at(-1)).toMatchObject({ state: 'failed' });
    expect(readFileSync(join(h.project, 'notes.txt'), 'utf8')).toBe('alpha\n');
  });
});
