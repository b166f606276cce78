import { moduleDir } from '../lsp/resolve-command';
import { findInstallRoot } from '../sandbox/launcher';
import { RemoteSessions, type RemoteSessionsOptions } from './remote-sessions';
import { RemoteSetupError } from './remote-setup-error';
import { parseSshUrl } from './ssh-url';

// The app's RemoteSessions as the host and the CLI's one-shot commands (`mewbo sessions rewind`)
// both make it: a host is opened with the app's own install as the bundle to copy.

export interface OpenRemoteSessionsOptions {
  remoteOf(sessionId: string): Promise<string | null>;
  worktreeOf: RemoteSessionsOptions['worktreeOf'];
  /** Appends what a session's remote tools emitted after their call (a shell's exit). */
  append: RemoteSessionsOptions['append'];
  /** How long a remote part with no link keeps its shells (config remote.keepalive_minutes). */
  keepaliveS(): number;
  /** `ssh -F` (config remote.ssh_config); null: the user's ~/.ssh/config. */
  sshConfig(): string | null;
  /** The app's $MEWBO_HOME, denied to the remote's shells too. */
  appHome: string;
  /** Where the copies of remote projects' policy files live. */
  policyDir: string;
}

export function openRemoteSessions(opts: OpenRemoteSessionsOptions): RemoteSessions {
  return new RemoteSessions({
    remoteOf: opts.remoteOf,
    worktreeOf: opts.worktreeOf,
    append: opts.append,
    policyDir: opts.policyDir,
    open: async (url) => {
      const installRoot = findInstallRoot(moduleDir());
      if (!installRoot)
        throw new RemoteSetupError(
          "the app's install was not found: it cannot copy its remote part",
        );
      // Loaded at a remote project's first connection, not with the host: the SSH transport, the
      // install and the remote part's command schemas (their zod schemas built as they load) are
      // for remote projects only, and every idle host held them (issue #26 part 4).
      const { RemoteHost } = await import('./remote-host');
      return RemoteHost.open({
        target: parseSshUrl(url),
        sshConfig: opts.sshConfig(),
        installRoot,
        appHome: opts.appHome,
        keepaliveS: opts.keepaliveS(),
      });
    },
  });
}
