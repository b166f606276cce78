import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ofType, type Harness } from '../../integration/agent/harness';
import { remoteSessionIn, useRemoteHost } from '../../integration/remote/remote-session';
import { tempDir } from '../../helpers/temp';

// "Always allow in this project" writes the rule into the project's .mewbo/settings.json. For a
// project on an SSH host that file is on the host; the desktop's folder of the same path is
// another project (often the user's own checkout at the same path), where the rule would widen
// what local sessions may do. The choice is refused for a remote session and nothing is written;
// the control is the same choice in a local session of that same folder, which writes it.

const host = useRemoteHost();
let h: Harness | undefined;
const t = tempDir('mewbo-remote-always-');
afterAll(() => t.cleanup());

/** Runs `echo hi` in `id` (ask mode) and answers its approval "always" for `scope`. */
async function alwaysFor(id: string, scope: 'project' | 'session') {
  h!.script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo hi' } }] },
    { text: 'done' },
  );
  const from = await h!.send(id, 'say hi');
  const seen = await h!.waitFor(
    id,
    (ev) => ofType(ev, 'approval_request').length > 0,
    'the approval',
    120_000,
  );
  const request = ofType(seen, 'approval_request')[0]!;
  const decide = {
    id,
    approval_id: request.approval_id,
    decision: 'allow' as const,
    always: scope,
  };
  return { from, decide };
}

describe('"Always allow" in a session on an SSH host', () => {
  it('"this project" is refused and writes nothing in the desktop folder of the same path; a local session of such a folder writes it (control); "this session" works', async () => {
    h = await host.harness();
    const settingsOf = (dir: string) => join(dir, '.mewbo', 'settings.json');

    // Control: a local session's "always for this project" writes the project's settings file.
    const localDir = join(t.dir, 'local');
    mkdirSync(localDir, { recursive: true });
    await h.invoke('trust.grant', { path: localDir });
    const local = await h.host.sessions.create({ title: 'local', project: null, root: localDir });
    await h.host.agent.setMode(local, 'ask');
    const control = await alwaysFor(local.id, 'project');
    await h.invoke('agent.decideApproval', control.decide);
    await h.waitRunEnd(local.id, control.from, 60_000);
    expect(existsSync(settingsOf(localDir))).toBe(true);

    // The same choice in a session whose project is that path on the host.
    const remoteDir = join(t.dir, 'remote');
    const remote = await remoteSessionIn(h, host.sshd, remoteDir, 'ask');
    // Both trusted: the project on the host, and the desktop's folder of that path (the user's
    // own checkout), so what refuses is where the rule would go, not either one's trust.
    await h.invoke('trust.grant', { path: `ssh://${host.sshd.alias}${remoteDir}` });
    await h.invoke('trust.grant', { path: remoteDir });
    const attempt = await alwaysFor(remote, 'project');
    const refused = await h.invokeError('agent.decideApproval', attempt.decide);
    expect(refused.code).toBe('rule_failed');
    expect(refused.message).toContain(`on an SSH host (ssh://${host.sshd.alias}${remoteDir})`);
    expect(refused.message).toContain('for this session or everywhere');
    expect(existsSync(settingsOf(remoteDir))).toBe(false);

    // Still waiting: the user picks "this session" instead, and the call runs on the host.
    await h.invoke('agent.decideApproval', { ...attempt.decide, always: 'session' });
    const events = await h.waitRunEnd(remote, attempt.from, 120_000);
    expect(ofType(events, 'tool_result')[0]!.payload).toMatchObject({
      stdout: expect.stringContaining('hi'),
    });
    expect(existsSync(settingsOf(remoteDir))).toBe(false);
  }, 240_000);
});
