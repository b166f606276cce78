import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { RemoteHost } from '../../../electron/host/remote/remote-host';
import { SshTransport } from '../../../electron/host/remote/ssh-transport';
import type { Sshd } from '../../helpers/sshd';

// What an attack on an SSH host starts from: the app's remote part on the test's sshd, and a
// plain ssh connection to the same host, whose commands run unconfined (each attack is first done
// there, so its refusal cannot pass because the thing is simply not there).

const installRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface AttackHost {
  remote: RemoteHost;
  ssh: SshTransport;
  /**
   * `command` in session `sessionId`'s shell in `root` on the host, under Landlock; `worktree`:
   * the session's worktree as the app records it.
   */
  confined(
    sessionId: string,
    root: string,
    command: string,
    worktree?: string,
  ): Promise<{ code: unknown; out: string }>;
  dispose(): Promise<void>;
}

/** `appHome`: the desktop's $MEWBO_HOME, which the remote part's shells are denied. */
export async function openAttackHost(sshd: Sshd, appHome: string): Promise<AttackHost> {
  const target = { host: sshd.alias, path: '/' };
  const remote = await RemoteHost.open({
    target,
    sshConfig: sshd.clientConfig,
    installRoot,
    appHome,
    keepaliveS: 60,
  });
  const ssh = await SshTransport.connect({ target, configFile: sshd.clientConfig }).catch(
    async (err: unknown) => {
      await remote.dispose();
      throw err;
    },
  );
  return {
    remote,
    ssh,
    async confined(sessionId, root, command, worktree) {
      const shell = await remote.runTool({
        session_id: sessionId,
        agent_id: 'root',
        root,
        tool: 'aider_shell_tool',
        args: { command },
        worktree,
      });
      expect(shell.payload).toMatchObject({ kind: 'shell', sandbox: { mode: 'landlock' } });
      return { code: shell.payload.exit_code, out: String(shell.payload.stdout) };
    },
    async dispose() {
      ssh.dispose();
      await remote.dispose();
    },
  };
}
