import type { z } from 'zod';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter } from '../lifecycle/emitter';
import type { Subscription } from '../rpc/router';
import type { RemoteLinkState } from '../../../shared/protocol/remote-link';
import {
  CALL_WAITS_FOR_LINK_MS,
  RECONNECT_FIRST_DELAY_MS,
  RECONNECT_MAX_DELAY_MS,
} from './constants';
import { HostKeyError } from './host-key-error';
import { forwardedChannel } from './forwarded-link';
import { RemoteClient, type RemoteChannel, type RemoteSubscription } from './remote-client';
import type { RemoteCommands } from './remote-commands';
import { remoteBundle, type RemoteBundle } from './remote-bundle';
import { ensureInstalled, type RemoteFacts } from './remote-install';
import { projectServerCommand, startCommand } from './remote-layout';
import { RemoteLinkError } from './remote-link-error';
import { RemoteSetupError } from './remote-setup-error';
import type { SshTarget } from './ssh-url';
import { SshTransport } from './ssh-transport';

// One SSH host the app works on: the master connection, the installed bundle, and a link (an SSH
// channel running the relay) to the remote part there. open() does all of first contact and
// throws HostKeyError, SshConnectError or RemoteSetupError with what to do. When the link drops,
// the remote part stays up (remote-daemon.ts) and this reconnects with backoff, for as long as the
// remote part keeps the shells (the keepalive); subscriptions are made again on the new link from
// where they were. A call in flight when the link dropped fails (RemoteLinkError) and is never
// sent again; a call made while reconnecting waits for the link a while, then fails unsent.

export interface RemoteHostOptions {
  target: SshTarget;
  /** `ssh -F`; null: the user's ~/.ssh/config. */
  sshConfig: string | null;
  /** The app's install, whose bundle is copied. */
  installRoot: string;
  /** The app's $MEWBO_HOME: denied to the remote's shells too, should that machine see it. */
  appHome: string;
  /** How long the remote part keeps its shells with no link (remote.keepalive_minutes). */
  keepaliveS: number;
}

export type ToolRunRequest = z.input<RemoteCommands['tools.run']['request']>;
export type ToolRunResponse = z.output<RemoteCommands['tools.run']['response']>;

type Hello = z.output<RemoteCommands['remote.hello']['response']>;

/** A subscription that outlives links: made again on each new one from `cursor()`. */
interface LastingSub {
  topic: string;
  cursor(): number | undefined;
  sink(data: unknown): void;
  onError(err: Error): void;
  /** Acks held up to this many before they are sent (RemoteClient.subscribe). */
  ackBatch: number;
  current: RemoteSubscription | null;
}

export class RemoteHost implements Disposable {
  private linkState: RemoteLinkState = 'connected';
  private disposed = false;
  private readonly subs = new Set<LastingSub>();
  private readonly changed = new Emitter<RemoteLinkState>();
  /** Link state changes: reconnecting after a drop, connected again, disconnected (gave up). */
  readonly onDidChangeState = this.changed.event;
  /** Cuts the wait before the next reconnect attempt short (a call is waiting). */
  private wake: (() => void) | null = null;
  private relinked = new Emitter<void>();

  private constructor(
    private readonly opts: RemoteHostOptions,
    private readonly bundle: RemoteBundle,
    private ssh: SshTransport,
    private client: RemoteClient,
    readonly facts: RemoteFacts,
    readonly hello: Hello,
    /** The server refused to forward to the remote part's socket: links go through the relay. */
    private readonly relayOnly: boolean,
  ) {
    this.watch();
  }

  static async open(opts: RemoteHostOptions): Promise<RemoteHost> {
    const bundle = remoteBundle(opts.installRoot);
    const ssh = await SshTransport.connect({ target: opts.target, configFile: opts.sshConfig });
    try {
      const facts = await ensureInstalled(ssh, bundle);
      const { client, hello, forwarded } = await link(ssh, bundle, opts, false);
      return new RemoteHost(opts, bundle, ssh, client, facts, hello, !forwarded);
    } catch (err) {
      ssh.dispose();
      throw err;
    }
  }

  get state(): RemoteLinkState {
    return this.linkState;
  }

  /** False once it gave up reconnecting (or was disposed): the next use opens the host anew. */
  get isOpen(): boolean {
    return !this.disposed && this.linkState !== 'disconnected';
  }

  async runTool(req: ToolRunRequest): Promise<ToolRunResponse> {
    return (await this.linked('tools.run')).invoke('tools.run', req);
  }

  /** Any other command of the remote part (checkpoints, consoles): one call, never resent. */
  async invoke<K extends keyof RemoteCommands>(
    method: K,
    params: z.input<RemoteCommands[K]['request']>,
  ): Promise<z.output<RemoteCommands[K]['response']>> {
    return (await this.linked(method)).invoke(method, params);
  }

  /**
   * Subscribes to a topic of the remote part, again on every new link from `cursor()` (what the
   * subscriber has had), until disposed. A refusal (no such shell) ends it through `onError`.
   * `ackBatch` as RemoteClient.subscribe takes it.
   */
  subscribe(
    topic: string,
    cursor: () => number | undefined,
    sink: (data: unknown) => void,
    onError: (err: Error) => void,
    ackBatch = 0,
  ): Subscription {
    const sub: LastingSub = { topic, cursor, sink, onError, ackBatch, current: null };
    const fail = (err: Error) => {
      this.subs.delete(sub);
      onError(err);
    };
    sub.onError = fail;
    this.subs.add(sub);
    if (this.client.isOpen) this.attach(sub);
    return {
      ack: (n) => sub.current?.ack(n),
      dispose: () => {
        this.subs.delete(sub);
        sub.current?.dispose();
      },
    };
  }

  private attach(sub: LastingSub): void {
    sub.current = this.client.subscribe(
      sub.topic,
      sub.cursor(),
      sub.sink,
      sub.onError,
      sub.ackBatch,
    );
  }

  /** The open link, waiting for a reconnect in progress; throws RemoteLinkError (not sent). */
  private async linked(method: string): Promise<RemoteClient> {
    if (this.client.isOpen) return this.client;
    if (this.linkState === 'reconnecting') {
      this.wake?.();
      const back = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), CALL_WAITS_FOR_LINK_MS);
        const sub = this.relinked.event(() => done(true));
        const off = this.onDidChangeState((s) => s === 'disconnected' && done(false));
        function done(ok: boolean) {
          clearTimeout(timer);
          sub.dispose();
          off.dispose();
          resolve(ok);
        }
      });
      if (back && this.client.isOpen) return this.client;
    }
    throw new RemoteLinkError(
      `the connection to ${this.opts.target.host} is down (${this.linkState}); ${method} was not sent`,
    );
  }

  private setState(state: RemoteLinkState): void {
    if (state === this.linkState) return;
    this.linkState = state;
    this.changed.fire(state);
  }

  private watch(): void {
    void this.client.closed.then(() => {
      if (!this.disposed) void this.reconnect();
    });
  }

  /** Tries again with backoff while the remote part may still hold the shells. */
  private async reconnect(): Promise<void> {
    for (const sub of this.subs) sub.current = null;
    this.setState('reconnecting');
    const deadline = Date.now() + this.opts.keepaliveS * 1000;
    let delay = RECONNECT_FIRST_DELAY_MS;
    while (!this.disposed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, delay);
        this.wake = done;
        function done() {
          clearTimeout(timer);
          resolve();
        }
      });
      this.wake = null;
      if (this.disposed) return;
      try {
        await this.relink();
        if (this.disposed) {
          // Disposed while relinking: what the relink made is this one's to end.
          this.client.dispose();
          this.ssh.dispose();
          return;
        }
        this.setState('connected');
        for (const sub of this.subs) this.attach(sub);
        this.relinked.fire();
        this.watch();
        return;
      } catch (err) {
        if (this.disposed) this.ssh.dispose();
        // A refused host key is not cured by waiting: the next use says it.
        if (err instanceof HostKeyError) break;
      }
      delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS);
    }
    if (!this.disposed) this.setState('disconnected');
  }

  /** A new link, over the master if it lives, else over a new master connection. */
  private async relink(): Promise<void> {
    if ((await this.ssh.masterPid()) === null) {
      this.ssh.dispose();
      this.ssh = await SshTransport.connect({
        target: this.opts.target,
        configFile: this.opts.sshConfig,
      });
    }
    const { client } = await link(this.ssh, this.bundle, this.opts, this.relayOnly);
    this.client = client;
  }

  /**
   * The argv that runs the project's `.mcp.json` server `name` on this host, over its master
   * connection, if the file there is the one whose SHA-256 the app trusted (remote-mcp-server.ts).
   */
  projectServerArgv(root: string, name: string, sha256: string): string[] {
    return this.ssh.commandArgv(
      projectServerCommand(this.bundle.version, [this.opts.appHome], root, name, sha256),
    );
  }

  /** The master connection's process (what a test kills to drop the link). */
  masterPid(): Promise<number | null> {
    return this.ssh.masterPid();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.wake?.();
    this.changed.dispose();
    this.relinked.dispose();
    this.subs.clear();
    this.client.dispose();
    await this.client.closed;
    this.ssh.dispose();
  }
}

/**
 * A link to the remote part, checked: over a socket the master forwards to it (forwarded-link.ts)
 * unless `relayOnly`, else (or when the server refuses that) through the relay on a channel.
 */
async function link(
  ssh: SshTransport,
  bundle: RemoteBundle,
  opts: RemoteHostOptions,
  relayOnly: boolean,
): Promise<{ client: RemoteClient; hello: Hello; forwarded: boolean }> {
  if (!relayOnly) {
    const forwarded = await forwardedChannel(ssh, bundle.version, [opts.appHome], opts.keepaliveS)
      .then((channel) => hello(channel, bundle, opts))
      .catch(() => null);
    if (forwarded) return { ...forwarded, forwarded: true };
  }
  const channel = ssh.spawn(startCommand(bundle.version, [opts.appHome], opts.keepaliveS));
  return { ...(await hello(channel, bundle, opts)), forwarded: false };
}

/** The client of a link on `channel`, once the remote part there said it is this bundle's. */
async function hello(
  channel: RemoteChannel,
  bundle: RemoteBundle,
  opts: RemoteHostOptions,
): Promise<{ client: RemoteClient; hello: Hello }> {
  const client = new RemoteClient(channel, opts.target.host);
  const hello = await client.invoke('remote.hello', {}).catch((err: Error) => {
    client.dispose();
    throw new RemoteSetupError(
      `the remote part did not start on ${opts.target.host}: ${err.message}`,
    );
  });
  if (hello.version !== bundle.version) {
    client.dispose();
    throw new RemoteSetupError(
      `the remote part on ${opts.target.host} answered as version ${hello.version}, not ${bundle.version}`,
    );
  }
  return { client, hello };
}
