import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { ConsoleCommand, RemoteSandbox } from '../../../shared/protocol/commands/shells';
import type {
  HostKeyRefusal,
  RemoteConnectionState,
} from '../../../shared/protocol/commands/projects';
import type { RemoteLinkFrame, RemoteLinkState } from '../../../shared/protocol/remote-link';
import type { ShellSink } from '../shells/output-stream';
import { isShellOutputBytes } from '../../../shared/protocol/shell-binary';
import { shellOutputFromRecord } from '../../web/shell-binary-frame';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter, type Event } from '../lifecycle/emitter';
import type { Subscription } from '../rpc/router';
import type { PassiveNote } from '../lsp/passive-diagnostics';
import type { ToolContext } from '../tools/tool';
import { HostKeyError, SshConnectError } from './host-key-error';
import type { RemoteCommands } from './remote-commands';
import type { FolderGit } from './git-commands';
import { RemoteAnswerError } from './remote-answer-error';
import { RemoteLinkError } from './remote-link-error';
import type { RemoteHost } from './remote-host';
import { RemoteSetupError } from './remote-setup-error';
import type { RemoteTools } from './remote-tools';
import { RemoteProjectMirror } from './remote-project-mirror';
import { remoteToolEvent } from './remote-tool-events';
import { parseSshUrl, sshHostUrl } from './ssh-url';
import { REMOTE_ACK_BATCH_CHARS } from './constants';
import type { z } from 'zod';

// The app's remote hosts, one connection and remote part per host shared by every session whose
// project is there (keyed by the URL without its path). A host that gave up reconnecting is
// opened again on the next call; a call that was in flight when its link dropped is not run
// again (RemoteLinkError). Besides the tools, it carries the consoles of the sessions' remote
// background shells (resumed from their cursor after a drop), what their tools emitted after the
// call (a shell's exit, appended to the session's log), and each session's link state.

export interface RemoteSessionsOptions {
  /** The session's project URL (its meta.remote), or null for a local project. */
  remoteOf(sessionId: string): Promise<string | null>;
  /**
   * The top folder of the session's own worktree on its host (its meta.worktree), or null for a
   * session in its project's folder: the remote part grants git's parts to that worktree only.
   */
  worktreeOf(sessionId: string): Promise<string | null>;
  open(url: string): Promise<RemoteHost>;
  /** Appends to the session's log what its remote tools emitted after their call returned. */
  append(sessionId: string, event: SessionEventBody): Promise<void>;
  /** Where the copies of remote projects' policy files live ($MEWBO_HOME/state/remote-projects). */
  policyDir: string;
}

/** A host's link changed (the project registry shows it on every project there). */
export interface HostLinkChange {
  /** sshHostUrl of the host. */
  host: string;
  state: RemoteConnectionState;
  /** The host key that stopped the connection, for the user to check and accept. */
  hostKey: HostKeyRefusal | null;
}

type Req<K extends keyof RemoteCommands> = z.input<RemoteCommands[K]['request']>;
type Res<K extends keyof RemoteCommands> = z.output<RemoteCommands[K]['response']>;

export class RemoteSessions implements RemoteTools, Disposable {
  private readonly hosts = new Map<string, Promise<RemoteHost>>();
  /** Per host key: the last host that opened there (Settings shows its sandbox). */
  private readonly connected = new Map<string, RemoteHost>();
  /** Per host key: the sessions that worked there, with their late-event subscription. */
  private readonly sessions = new Map<string, Map<string, Subscription>>();
  private readonly states = new Map<string, RemoteLinkState>();
  private readonly changed = new Emitter<RemoteLinkFrame>();
  /** A session's link changed (the `remote` topic). */
  readonly onDidChangeLink = this.changed.event;
  private readonly hostChanged = new Emitter<HostLinkChange>();
  /** A host's link changed, from `connecting` on (the projects there show it). */
  readonly onDidChangeHost: Event<HostLinkChange> = this.hostChanged.event;

  private readonly mirror: RemoteProjectMirror;

  constructor(private readonly opts: RemoteSessionsOptions) {
    this.mirror = new RemoteProjectMirror({
      dir: opts.policyDir,
      fetch: async (url) => {
        const host = await this.hostFor(url);
        return (await host.invoke('project.policyFiles', { root: parseSshUrl(url).path })).files;
      },
    });
  }

  policyRoot(url: string): Promise<string> {
    return this.mirror.sync(url);
  }

  /**
   * The git state of the project at `url`, read by its host's git (git-commands.ts); undefined
   * when the host is not connected now: none is opened for it.
   */
  async gitState(url: string): Promise<FolderGit | null | undefined> {
    const host = await this.hosts.get(sshHostUrl(url))?.catch(() => undefined);
    if (!host || host.state !== 'connected') return undefined;
    return (await host.invoke('git.state', { root: parseSshUrl(url).path })).git;
  }

  /** Runs a project hook of the session on its host (hook-commands.ts). */
  async runHook(url: string, req: Omit<Req<'hooks.run'>, 'worktree'>): Promise<Res<'hooks.run'>> {
    const host = await this.hostFor(url, req.session_id);
    return host.invoke('hooks.run', { ...req, worktree: await this.worktreeOf(req.session_id) });
  }

  remoteOf(sessionId: string): Promise<string | null> {
    return this.opts.remoteOf(sessionId);
  }

  private async worktreeOf(sessionId: string): Promise<string | undefined> {
    return (await this.opts.worktreeOf(sessionId)) ?? undefined;
  }

  /** Every session that worked on a remote host, with its link's state now. */
  links(): RemoteLinkFrame[] {
    return [...this.sessions].flatMap(([host, ids]) =>
      [...ids.keys()].map((session_id) => this.frame(host, session_id)),
    );
  }

  async run(ctx: ToolContext, url: string, tool: string, args: unknown): Promise<ToolPayload> {
    try {
      const host = await this.hostFor(url, ctx.sessionId);
      const { payload, events } = await host.runTool({
        session_id: ctx.sessionId,
        agent_id: ctx.agentId,
        call_id: ctx.callId,
        root: ctx.root,
        tool,
        args,
        worktree: await this.worktreeOf(ctx.sessionId),
      });
      // Checked whole first: a refused answer adds nothing to the log.
      const checked = events.map((e) => remoteToolEvent(parseSshUrl(url).host, e));
      for (const event of checked) await ctx.emit(event);
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
        err instanceof SshConnectError ||
        err instanceof RemoteAnswerError
      )
        return errorPayload(err.code, err.message);
      throw err;
    }
  }

  /** The Landlock of every host this app has connected to (as its remote part said on connecting). */
  sandboxes(): RemoteSandbox[] {
    return [...this.connected].map(([host, { hello }]) => ({
      host,
      landlock_abi: hello.landlock_abi,
      landlock_reason: hello.landlock_reason,
    }));
  }

  /** A console command (`shells.list`, input, resize, kill) run on the session's host. */
  async shells<K extends ConsoleCommand>(
    url: string,
    method: K,
    req: Req<K> & { session_id: string },
  ): Promise<Res<K>> {
    const host = await this.hostFor(url, req.session_id);
    return host.invoke(method, req);
  }

  /**
   * A console of a remote background shell: the remote's frames as they are, and after a drop
   * the same subscription again from the cursor the console had reached, so nothing is sent
   * twice, and what the remote's ring buffer evicted meanwhile arrives as `missed_characters`.
   */
  async subscribeShell(
    url: string,
    sessionId: string,
    shellId: string,
    fromCursor: number | undefined,
    sink: ShellSink,
  ): Promise<Subscription> {
    const host = await this.hostFor(url, sessionId);
    let cursor = fromCursor;
    return new Promise((resolve, reject) => {
      let answered = false;
      const sub = host.subscribe(
        `shell:${sessionId}:${shellId}`,
        () => cursor,
        (data) => {
          let frame: Parameters<ShellSink>[0];
          if (isShellOutputBytes(data)) {
            // A binary record: passed on as bytes (shell-binary-frame.ts), its length from its header.
            frame = shellOutputFromRecord(shellId, data);
            cursor = data.cursor + data.characters;
          } else {
            frame = data as Parameters<ShellSink>[0];
            if (frame.type === 'shell_output') cursor = frame.cursor + frame.data.length;
          }
          if (!answered) {
            answered = true;
            resolve(sub);
          }
          sink(frame);
        },
        (err) => {
          if (!answered) reject(err);
          answered = true;
        },
        // A console's acks only pace its output: passed on in batches (constants.ts).
        REMOTE_ACK_BATCH_CHARS,
      );
    });
  }

  private frame(host: string, sessionId: string): RemoteLinkFrame {
    return {
      type: 'remote_link',
      session_id: sessionId,
      host,
      state: this.states.get(host) ?? 'disconnected',
    };
  }

  private setState(key: string, state: RemoteLinkState): void {
    if (this.states.get(key) === state) return;
    this.states.set(key, state);
    for (const id of this.sessions.get(key)?.keys() ?? []) this.changed.fire(this.frame(key, id));
  }

  async diagnosticsAfterEdit(
    sessionId: string,
    url: string,
    root: string,
    files: string[],
  ): Promise<PassiveNote | null> {
    const host = await this.hostFor(url, sessionId);
    const { note } = await host.invoke('lsp.diagnosticsAfterEdit', {
      session_id: sessionId,
      root,
      files,
    });
    return note;
  }

  /**
   * The host of `url`, connected (opened anew if it gave up reconnecting); throws what open()
   * throws. With a session, that session's late events and link state are taken from it.
   */
  async hostFor(url: string, sessionId?: string): Promise<RemoteHost> {
    const key = sshHostUrl(url);
    const known = this.hosts.get(key);
    // A host that gave up reconnecting is opened again; one still opening is waited for.
    const reuse = await known?.then(
      (h) => (h.isOpen ? h : null),
      () => null,
    );
    const host = reuse ?? (await this.openHost(key, url));
    if (sessionId !== undefined) this.join(key, host, sessionId);
    return host;
  }

  /** Takes the session's late events from the host from now on (once per session and host). */
  private join(key: string, host: RemoteHost, sessionId: string): void {
    let ids = this.sessions.get(key);
    if (!ids) this.sessions.set(key, (ids = new Map()));
    if (ids.has(sessionId)) return;
    const late = host.subscribe(
      `session:${sessionId}`,
      () => undefined,
      (data) => {
        let event: SessionEventBody;
        try {
          event = remoteToolEvent(
            parseSshUrl(key).host,
            (data as { event?: unknown } | null)?.event,
          );
        } catch (err) {
          // Said in the log instead, and acked: the host does not send it again.
          event = { type: 'notice', code: 'remote_refused', message: (err as Error).message };
        }
        void this.opts.append(sessionId, event).then(() => late.ack?.(1));
      },
      () => ids.delete(sessionId),
    );
    ids.set(sessionId, late);
    this.changed.fire(this.frame(key, sessionId));
  }

  private openHost(key: string, url: string): Promise<RemoteHost> {
    this.hostChanged.fire({ host: key, state: 'connecting', hostKey: null });
    const opening = this.opts.open(url);
    this.hosts.set(key, opening);
    opening.then(
      (host) => {
        // The sessions of the old host take their late events from the new one.
        for (const sub of this.sessions.get(key)?.values() ?? []) void sub.dispose();
        this.sessions.get(key)?.clear();
        this.connected.set(key, host);
        this.setState(key, 'connected');
        this.hostChanged.fire({ host: key, state: 'connected', hostKey: null });
        host.onDidChangeState((state) => {
          this.setState(key, state);
          this.hostChanged.fire({ host: key, state, hostKey: null });
        });
      },
      (err: unknown) => {
        // A refusal (host key, no Node) is said again on the next call, not remembered.
        if (this.hosts.get(key) === opening) this.hosts.delete(key);
        this.setState(key, 'disconnected');
        this.hostChanged.fire({ host: key, state: 'disconnected', hostKey: hostKeyRefusal(err) });
      },
    );
    return opening;
  }

  async dispose(): Promise<void> {
    const hosts = [...this.hosts.values()];
    this.hosts.clear();
    this.connected.clear();
    this.changed.dispose();
    this.hostChanged.dispose();
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

/** What the picker shows of a connection its host key stopped; null for any other failure. */
function hostKeyRefusal(err: unknown): HostKeyRefusal | null {
  return err instanceof HostKeyError
    ? {
        problem: err.problem,
        host: err.host,
        port: err.port,
        fingerprint: err.fingerprint,
        destination: err.destination,
      }
    : null;
}
