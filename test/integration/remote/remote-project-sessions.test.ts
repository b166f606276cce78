import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientContext } from '../../../electron/host/rpc/router';
import type { ProjectEntry } from '../../../shared/protocol/commands/projects';
import { Harness } from '../agent/harness';
import { startSshd, type Sshd } from '../../helpers/sshd';

// A session created on a remote project the way the picker makes one (projects.addRemote, then
// sessions.create with the project's key: the desktop and `mewbo serve`, not only `mewbo run`)
// runs its tools in the folder on the SSH host, and the project list tells the host's link as it
// opens, drops and comes back. Against the real sshd and the scripted model.

const CLIENT: ClientContext = { clientId: 'test', transport: 'local' };

let sshd: Sshd;
let h: Harness | undefined;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(async () => sshd?.stop());
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Collects the link states of project `key` pushed on the projects topic, without repeats. */
async function linkStates(harness: Harness, key: string) {
  const states: string[] = [];
  let changed = () => {};
  const sub = await harness.host.router.subscribe(
    'projects',
    undefined,
    (data) => {
      const entry = (data as { projects: ProjectEntry[] }).projects.find((p) => p.key === key);
      const state = entry?.remote?.state;
      if (state && states.at(-1) !== state) states.push(state);
      changed();
    },
    CLIENT,
  );
  const reach = (state: string) =>
    new Promise<void>((resolve) => {
      changed = () => states.at(-1) === state && resolve();
      changed();
    });
  return { states, reach, dispose: () => sub.dispose() };
}

describe('a session on a remote project, made as the picker makes it', () => {
  it('runs its shell in the folder on the host and the project shows the link open, dropped and back', async () => {
    h = await Harness.start({
      config: { remote: { ssh_config: sshd.clientConfig }, permission_mode: 'auto' },
    });
    const folder = join(sshd.remoteHome, 'site');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.txt'), 'on the host\n');
    const { project } = await h.invoke('projects.addRemote', {
      url: `ssh://${sshd.alias}${folder}`,
    });
    // Adding contacts nothing.
    expect(project.remote).toMatchObject({ state: 'disconnected' });
    const link = await linkStates(h, project.key);
    h.script.push(
      {
        toolCalls: [
          { name: 'aider_shell_tool', args: { command: 'pwd; cat a.txt; printf %s "$HOME"' } },
        ],
      },
      { text: 'Done.' },
    );
    const { session } = await h.invoke('sessions.create', { project: project.key });
    const from = await h.send(session.id, 'show the file');
    const events = await h.waitRunEnd(session.id, from, 90_000);
    const result = events.find((e) => e.type === 'tool_result' && e.name === 'aider_shell_tool');
    // The host's HOME (sshd's SetEnv), not this computer's: the shell ran there, in the folder.
    expect(result).toMatchObject({
      payload: { kind: 'shell', stdout: `${folder}\non the host\n${sshd.remoteHome}` },
    });
    await link.reach('connected');
    const listed = await h.invoke('projects.list', {});
    expect(listed.projects.find((p) => p.key === project.key)).toMatchObject({
      available: true,
      remote: { state: 'connected', host_key: null },
    });

    // The link drops (its master connection killed): every project on the host says the app is
    // trying again, then that it is back.
    const masters = sshd.clientPids('master');
    expect(masters).toHaveLength(1);
    process.kill(masters[0]!, 'SIGKILL');
    await link.reach('reconnecting');
    await link.reach('connected');
    expect(link.states.slice(-2)).toEqual(['reconnecting', 'connected']);
    await link.dispose();
  });

  it("a session on a remote project cannot have an external agent (it needs a local checkout); its worktree is the host's, so a host out of reach fails it and leaves no session", async () => {
    h = await Harness.start();
    const { project } = await h.invoke('projects.addRemote', { url: 'ssh://box/srv/app' });
    const worktree = await h.invokeError('sessions.create', {
      project: project.key,
      worktree: true,
    });
    expect(worktree).toMatchObject({ code: 'ssh_connect' });
    expect((await h.invoke('sessions.list', {})).sessions).toEqual([]);
    const agent = await h.invokeError('sessions.create', { project: project.key, agent: 'codex' });
    expect(agent).toMatchObject({ code: 'unsupported' });
    expect(agent.message).toContain('create it without an external agent');
  });
});
