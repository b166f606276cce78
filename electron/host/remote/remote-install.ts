import { Readable } from 'node:stream';
import { MIN_NODE_MAJOR } from './constants';
import { BUNDLE_OS, bundleMachine, bundleTar, type RemoteBundle } from './remote-bundle';
import { installCommand, probeCommand } from './remote-layout';
import { RemoteSetupError } from './remote-setup-error';
import type { SshTransport } from './ssh-transport';

// First contact with a remote (issue #29 part 2): one command reads its OS, architecture and
// Node; a bundle of this version already there is used as is, otherwise it is copied over the
// same connection. Anything the remote lacks is a RemoteSetupError saying what is needed.

export interface RemoteFacts {
  os: string;
  arch: string;
  /** `v20.11.1`, or '' when the remote has no node on its PATH. */
  node: string;
  installed: boolean;
}

export function parseFacts(text: string): RemoteFacts {
  const field = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
  return {
    os: field('os'),
    arch: field('arch'),
    node: field('node'),
    installed: field('installed') === 'yes',
  };
}

/** Why the remote cannot run this bundle, or null when it can. */
export function unsupported(facts: RemoteFacts, where: string): string | null {
  if (facts.os !== BUNDLE_OS)
    return `${where} runs ${facts.os || 'an unknown OS'}; projects on SSH hosts need a Linux host (the shells' sandbox is Linux's Landlock)`;
  if (facts.arch !== bundleMachine())
    return `${where} is ${facts.arch || 'of an unknown architecture'} and this app carries its remote part for ${bundleMachine()} only; open the project from an app built for ${facts.arch}`;
  if (!facts.node)
    return `${where} has no node on its PATH: install Node.js ${MIN_NODE_MAJOR} or newer there (for example from your distribution or nodejs.org), then connect again`;
  const major = Number(/^v(\d+)\./.exec(facts.node)?.[1] ?? NaN);
  if (!(major >= MIN_NODE_MAJOR))
    return `${where} has node ${facts.node}; the remote part needs Node.js ${MIN_NODE_MAJOR} or newer: upgrade it there, then connect again`;
  return null;
}

/** Makes sure `bundle` is installed on the remote; returns what the probe found. */
export async function ensureInstalled(
  ssh: SshTransport,
  bundle: RemoteBundle,
): Promise<RemoteFacts> {
  const where = ssh.target.host;
  const probe = await ssh.exec(probeCommand(bundle.version));
  if (probe.code !== 0)
    throw new RemoteSetupError(
      `cannot read what ${where} runs (exit ${probe.code}): ${probe.stderr.trim() || 'no message'}`,
    );
  const facts = parseFacts(probe.stdout.toString());
  const why = unsupported(facts, where);
  if (why) throw new RemoteSetupError(why);
  if (facts.installed) return facts;
  const copy = await ssh.exec(
    installCommand(bundle.version),
    await readAll(await bundleTar(bundle)),
  );
  if (copy.code !== 0)
    throw new RemoteSetupError(
      `copying the remote part to ${where} failed (exit ${copy.code}): ${copy.stderr.trim() || 'no message'}`,
    );
  return { ...facts, installed: true };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
