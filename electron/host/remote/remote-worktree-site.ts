import type { SessionWorktree, WorktreeRequest } from '../../../shared/protocol/session-worktree';
import type { WorktreeLoss } from '../../../shared/protocol/commands/worktrees';
import type { NewWorktree } from '../worktrees/create-worktree';
import type { WorktreeSite, WorktreeWork } from '../worktrees/worktree-site';
import { HostError } from '../rpc/host-error';
import { ApplyConflictError, CheckoutChangedError } from '../worktrees/apply-to-checkout';
import type { RemoteHost } from './remote-host';
import type { RemoteSessions } from './remote-sessions';
import { sshUrlOn } from './ssh-url';

// A remote project's session worktrees, their git run on the project's host by its remote part
// (worktree-commands.ts): the app sends the record it keeps and gets back what the host's git
// said, each answer checked by the command's schema before anything here sees it. Nothing of it
// touches this computer's disk.

export interface RemoteWorktreeSiteOptions {
  /** The project's ssh:// URL. */
  url: string;
  /** Its host, connected (opened anew when it gave up reconnecting). */
  host(url: string): Promise<RemoteHost>;
  /** The `worktrees.copy` list: names relative to the repository, meaningful on the host too. */
  copy(): string[];
}

export class RemoteWorktreeSite implements WorktreeSite {
  constructor(private readonly opts: RemoteWorktreeSiteOptions) {}

  private host(): Promise<RemoteHost> {
    return this.opts.host(this.opts.url);
  }

  /** `projectDir`: the project's folder on the host (its URL's path). */
  async create(req: {
    projectDir: string;
    request: WorktreeRequest;
    title: string;
  }): Promise<NewWorktree> {
    return (await this.host()).invoke('worktree.create', {
      root: req.projectDir,
      request: req.request,
      title: req.title,
      copy: this.opts.copy(),
    });
  }

  async review(wt: SessionWorktree): Promise<WorktreeWork> {
    return (await this.host()).invoke('worktree.review', { worktree: wt });
  }

  async changedCount(wt: SessionWorktree): Promise<number> {
    return (await (await this.host()).invoke('worktree.count', { worktree: wt })).changed_files;
  }

  async diff(wt: SessionWorktree, path?: string): Promise<string> {
    return (
      await (
        await this.host()
      ).invoke('worktree.diff', {
        worktree: wt,
        ...(path ? { path } : {}),
      })
    ).patch;
  }

  async uncommitted(wt: SessionWorktree): Promise<{ patch: string; files: string[] }> {
    return (await this.host()).invoke('worktree.uncommitted', { worktree: wt });
  }

  async apply(wt: SessionWorktree): Promise<string[]> {
    try {
      return (await (await this.host()).invoke('worktree.apply', { worktree: wt })).files;
    } catch (err) {
      throw this.namedHere(err, wt);
    }
  }

  /**
   * A refused Apply as the user reads it here: the host named its checkout by its own path, which
   * on this computer would read as a local folder; the same error names it as `ssh://HOST/path`.
   */
  private namedHere(err: unknown, wt: SessionWorktree): unknown {
    if (!(err instanceof HostError) || !err.issues) return err;
    const checkout = sshUrlOn(this.opts.url, wt.checkout);
    if (err.code === 'apply_conflict')
      return new ApplyConflictError(
        err.issues.map((i) => ({ path: i.path, reason: i.message })),
        checkout,
      );
    if (err.code === 'checkout_changed' && err.issues[0])
      return new CheckoutChangedError(err.issues[0].path, checkout);
    return err;
  }

  async commit(wt: SessionWorktree, message: string): Promise<string> {
    return (await (await this.host()).invoke('worktree.commit', { worktree: wt, message })).sha;
  }

  async loss(wt: SessionWorktree): Promise<WorktreeLoss> {
    return (await this.host()).invoke('worktree.loss', { worktree: wt });
  }

  async remove(wt: SessionWorktree): Promise<void> {
    await (await this.host()).invoke('worktree.remove', { worktree: wt });
  }
}

/**
 * The site of each remote project's worktrees (SessionWorktreesOptions.remoteSite), its hosts
 * taken from `remotes()`: the app's RemoteSessions, which the host makes after its worktrees.
 */
export function remoteWorktreeSites(
  remotes: () => Pick<RemoteSessions, 'hostFor'> | undefined,
  copy: () => string[],
): (url: string) => WorktreeSite {
  return (url) =>
    new RemoteWorktreeSite({
      url,
      host: async (u) => {
        const r = remotes();
        if (!r) throw new Error('the SSH hosts are not started yet');
        return r.hostFor(u);
      },
      copy,
    });
}
