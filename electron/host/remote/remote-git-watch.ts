import type { Disposable } from '../lifecycle/disposable';
import type { SessionManager } from '../sessions/session-manager';
import type { ProjectRegistry } from '../projects/project-registry';
import type { RemoteSessions } from './remote-sessions';
import { sshHostUrl } from './ssh-url';

// Keeps the git state of remote projects in the project list (branch, origin, files not
// committed) as the host's git reads it: for every project on a host when its link connects, and
// for a session's project each time its run stops or pauses (what the agent did shows then, as a
// worktree session's count of changed files does). It never opens a connection of its own: a
// host that is not connected keeps the state it was last seen with.

export interface RemoteGitWatchOptions {
  sessions: SessionManager;
  remotes: RemoteSessions;
  projects: ProjectRegistry;
}

export class RemoteGitWatch implements Disposable {
  private readonly subscriptions: Disposable[];
  /** Per project URL: the look in flight, and whether another is due after it. */
  private readonly looking = new Map<string, { again: boolean }>();

  constructor(private readonly opts: RemoteGitWatchOptions) {
    this.subscriptions = [
      opts.remotes.onDidChangeHost((c) => {
        if (c.state !== 'connected') return;
        for (const p of opts.projects.snapshot())
          if (p.remote && sshHostUrl(p.remote.url) === c.host) this.look(p.remote.url);
      }),
      opts.sessions.onDidOpen((s) => {
        const url = s.meta.remote;
        if (!url) return;
        s.onDidAppend((e) => {
          if (e.type === 'run_state' && e.state !== 'running') this.look(url);
        });
      }),
    ];
  }

  /** Reads the project's git state on its host, one look at a time per project. */
  private look(url: string): void {
    const busy = this.looking.get(url);
    if (busy) {
      busy.again = true;
      return;
    }
    const state = { again: false };
    this.looking.set(url, state);
    void (async () => {
      do {
        state.again = false;
        const git = await this.opts.remotes.gitState(url).catch(() => undefined);
        if (git !== undefined) await this.opts.projects.setRemoteGit(url, git).catch(() => {});
      } while (state.again);
      this.looking.delete(url);
    })();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
