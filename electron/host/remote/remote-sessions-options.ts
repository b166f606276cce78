import type { HomePaths } from '../config/paths';
import type { AppConfig } from '../config/schema';
import type { SessionManager } from '../sessions/session-manager';
import type { OpenRemoteSessionsOptions } from './open-remote-sessions';

// What the app's host and the CLI's one-shot commands (`mewbo sessions rewind|diff|apply|discard`)
// open their remote hosts with: each session's project URL, worktree and log from the session store, ssh
// and the keepalive from the config as it is at each connect, the app's home and its copies of
// remote projects' policy files.

export function remoteSessionsOptions(
  sessions: Pick<SessionManager, 'get'>,
  config: () => Pick<AppConfig, 'remote'>,
  paths: Pick<HomePaths, 'home' | 'remoteProjectsDir'>,
): OpenRemoteSessionsOptions {
  return {
    remoteOf: async (id) => (await sessions.get(id)).meta.remote ?? null,
    worktreeOf: async (id) => {
      const worktree = (await sessions.get(id)).meta.worktree;
      return worktree && !worktree.removed_at ? worktree.path : null;
    },
    sshConfig: () => config().remote.ssh_config,
    keepaliveS: () => config().remote.keepalive_minutes * 60,
    append: async (id, event) => void (await (await sessions.get(id)).append(event)),
    appHome: paths.home,
    policyDir: paths.remoteProjectsDir,
  };
}
