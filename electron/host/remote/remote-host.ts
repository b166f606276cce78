import type { z } from 'zod';
import type { Disposable } from '../lifecycle/disposable';
import { RemoteClient } from './remote-client';
import type { RemoteCommands } from './remote-commands';
import { remoteBundle } from './remote-bundle';
import { ensureInstalled, type RemoteFacts } from './remote-install';
import { startCommand } from './remote-layout';
import { RemoteSetupError } from './remote-setup-error';
import type { SshTarget } from './ssh-url';
import { SshTransport } from './ssh-transport';

// One SSH host the app works on: the master connection, the installed bundle, and the remote
// part running on a channel of that connection. open() does all of first contact and throws
// HostKeyError, SshConnectError or RemoteSetupError with what to do.

export interface RemoteHostOptions {
  target: SshTarget;
  /** `ssh -F`; null: the user's ~/.ssh/config. */
  sshConfig: string | null;
  /** The app's install, whose bundle is copied. */
  installRoot: string;
  /** The app's $MEWBO_HOME: denied to the remote's shells too, should that machine see it. */
  appHome: string;
}

export type ToolRunRequest = z.input<RemoteCommands['tools.run']['request']>;
export type ToolRunResponse = z.output<RemoteCommands['tools.run']['response']>;

export class RemoteHost implements Disposable {
  private constructor(
    private readonly ssh: SshTransport,
    private readonly client: RemoteClient,
    readonly facts: RemoteFacts,
    readonly hello: z.output<RemoteCommands['remote.hello']['response']>,
  ) {}

  static async open(opts: RemoteHostOptions): Promise<RemoteHost> {
    const bundle = remoteBundle(opts.installRoot);
    const ssh = await SshTransport.connect({ target: opts.target, configFile: opts.sshConfig });
    try {
      const facts = await ensureInstalled(ssh, bundle);
      const channel = ssh.spawn(startCommand(bundle.version, [opts.appHome]));
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
      return new RemoteHost(ssh, client, facts, hello);
    } catch (err) {
      ssh.dispose();
      throw err;
    }
  }

  get isOpen(): boolean {
    return this.client.isOpen;
  }

  runTool(req: ToolRunRequest): Promise<ToolRunResponse> {
    return this.client.invoke('tools.run', req);
  }

  /** Any other command of the remote part (checkpoints, project files): one call, never resent. */
  invoke<K extends keyof RemoteCommands>(
    method: K,
    params: z.input<RemoteCommands[K]['request']>,
  ): Promise<z.output<RemoteCommands[K]['response']>> {
    return this.client.invoke(method, params);
  }

  /** The master connection's process (what a test kills to drop the link). */
  masterPid(): Promise<number | null> {
    return this.ssh.masterPid();
  }

  async dispose(): Promise<void> {
    this.client.dispose();
    await this.client.closed;
    this.ssh.dispose();
  }
}
