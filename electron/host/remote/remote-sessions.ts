import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { Disposable } from '../lifecycle/disposable';
import type { ToolContext } from '../tools/tool';
import { HostKeyError, SshConnectError } from './host-key-error';
import { RemoteLinkError } from './remote-link-error';
import type { RemoteHost } from './remote-host';
import { RemoteSetupError } from './remote-setup-error';
import type { RemoteTools } from './remote-tools';
import { formatSshUrl, parseSshUrl } from './ssh-url';

// The app's remote hosts, one connection and remote part per host shared by every session whose
// project is there (keyed by the URL without its path). A host whose link ended is opened again
// on the next call; a call that was in flight when it ended is not run again (RemoteLinkError).

export interface RemoteSessionsOptions {
  /** The session's project URL (its meta.remote), or null for a local project. */
  remoteOf(sessionId: string): Promise<string | null>;
  open(url: string): Promise<RemoteHost>;
}

export class RemoteSessions implements RemoteTools, Disposable {
  private readonly hosts = new Map<string, Promise<RemoteHost>>();

  constructor(private readonly opts: RemoteSessionsOptions) {}

  remoteOf(sessionId: string): Promise<string | null> {
    return this.opts.remoteOf(sessionId);
  }

  async run(ctx: ToolContext, url: string, tool: string, args: unknown): Promise<ToolPayload> {
    try {
      const host = await this.hostFor(url);
      const { payload, events } = await host.runTool({
        session_id: ctx.sessionId,
        agent_id: ctx.agentId,
        call_id: ctx.callId,
        root: ctx.root,
        tool,
        args,
      });
      for (const event of events) await ctx.emit(event as SessionEventBody);
      return payload;
    } catch (err) {
      if (err instanceof HostKeyError)
        return errorPayload(err.code, err.message, {
          host: err.host,
          port: err.port,
          problem: err.problem,
          fingerprint: err.fingerprint,
        });
      if (
        err instanceof RemoteLinkError ||
        err instanceof RemoteSetupError ||
        err instanceof SshConnectError
      )
        return errorPayload(err.code, err.message);
      throw err;
    }
  }

  /** The host of `url`, connected (again, if its link ended); throws what open() throws. */
  hostFor(url: string): Promise<RemoteHost> {
    const key = formatSshUrl({ ...parseSshUrl(url), path: '/' });
    const known = this.hosts.get(key);
    if (known) {
      // A host whose link ended is opened again; one still opening is waited for.
      const reuse = known.then(
        (h) => (h.isOpen ? h : null),
        () => null,
      );
      return reuse.then((h) => h ?? this.openHost(key, url));
    }
    return this.openHost(key, url);
  }

  private openHost(key: string, url: string): Promise<RemoteHost> {
    const opening = this.opts.open(url);
    this.hosts.set(key, opening);
    // A refusal (host key, no Node) is said again on the next call, not remembered.
    opening.catch(() => {
      if (this.hosts.get(key) === opening) this.hosts.delete(key);
    });
    return opening;
  }

  async dispose(): Promise<void> {
    const hosts = [...this.hosts.values()];
    this.hosts.clear();
    await Promise.all(
      hosts.map((h) =>
        h.then(
          (host) => host.dispose(),
          () => undefined,
        ),
      ),
    );
  }
}
