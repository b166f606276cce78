import { homePaths } from '../host/config/paths';
import { loadConfigFile } from '../host/config/load-config';
import { ProjectRegistry } from '../host/projects/project-registry';
import type { AppConfig } from '../host/config/schema';
import { acceptHostKey, HostKeyAcceptError } from '../host/remote/host-key-accept';
import { isSshUrl, parseSshUrl, type SshTarget } from '../host/remote/ssh-url';
import type { ProjectEntry } from '../../shared/protocol/commands/projects';
import { parseCliArgs, UsageError, type CliCommand } from './command';
import { CliFailure, failure } from './cli-failure';

const usage = `Usage:
  mewbo projects list [--json]
  mewbo projects add DIR|URL [--name NAME]
  mewbo projects remove KEY
  mewbo projects accept-host-key URL|HOST SHA256:FINGERPRINT

The projects the app lists in its picker. add registers a local folder, or a folder on an SSH host
by URL: ssh://[user@]host[:port]/absolute/path, or ssh://ALIAS/path with a Host of your
~/.ssh/config (ssh reads your config, keys, agent and known_hosts as in a terminal). Adding a
remote project contacts nothing; it prints the project's key. list prints one project a line: key,
kind, where it is (a folder, or the ssh:// URL) and, for a remote one, whether it is connected.
remove forgets an added project (its files stay); configured ones live in configs/app.json.
accept-host-key adds an SSH host's key to your known_hosts after you compared its fingerprint
(shown when the host's unknown key stopped a connection) with the one the host's owner gave: the
host is asked for its key again, and only the key with that fingerprint is added (any other is
refused, as is a host already known with another key). URL is a project's ssh:// URL or
ssh://[user@]host[:port]/; HOST an alias of your ~/.ssh/config or a host name.

Exit status: 0 done, 1 a failure (a folder that is not there, an unknown key, a host key that is
not the one given), 2 bad usage
(a malformed ssh:// URL says what is wrong with it).`;

function where(p: ProjectEntry): string {
  if (p.remote) return `${p.remote.url}\t${p.remote.state}`;
  return p.path ?? '(not checked out)';
}

async function list(registry: ProjectRegistry, argv: string[]): Promise<number> {
  const { values } = parseCliArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const { projects } = await registry.list({ fresh: true });
  if (values.json) {
    process.stdout.write(JSON.stringify(projects, null, 2) + '\n');
    return 0;
  }
  for (const p of projects) process.stdout.write(`${p.key}\t${p.kind}\t${where(p)}\n`);
  return 0;
}

async function add(registry: ProjectRegistry, argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' } },
  });
  const [target, extra] = positionals;
  if (!target) throw new UsageError('a folder or an ssh:// URL to add is required');
  if (extra !== undefined) throw new UsageError(`one project at a time ('${extra}' is extra)`);
  const opts = { name: values.name };
  const entry = isSshUrl(target)
    ? await registry.addRemote(target, opts).catch((err: unknown) => {
        if ((err as { code?: string }).code === 'invalid_url')
          throw new UsageError((err as Error).message);
        return failure(err);
      })
    : await registry.add(target, opts).catch(failure);
  process.stdout.write(`${entry.key}\n`);
  process.stderr.write(`mewbo projects add: ${entry.key} is ${where(entry).split('\t')[0]}\n`);
  return 0;
}

async function remove(registry: ProjectRegistry, argv: string[]): Promise<number> {
  const { positionals } = parseCliArgs({ args: argv, allowPositionals: true });
  const [key] = positionals;
  if (!key) throw new UsageError('the KEY of the project to remove is required');
  await registry.remove(key).catch(failure);
  return 0;
}

async function acceptHostKeyCli(_r: ProjectRegistry, argv: string[], config: AppConfig) {
  const { positionals } = parseCliArgs({ args: argv, allowPositionals: true });
  const [where, fingerprint, extra] = positionals;
  if (!where || !fingerprint)
    throw new UsageError('the host (ssh:// URL or HOST) and the SHA256: fingerprint are required');
  if (extra !== undefined) throw new UsageError(`one host at a time ('${extra}' is extra)`);
  let target: SshTarget;
  try {
    target = parseSshUrl(isSshUrl(where) ? where : `ssh://${where}/`);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const result = await acceptHostKey({
    target,
    configFile: config.remote.ssh_config,
    fingerprint,
  }).catch((err: unknown) => {
    if (err instanceof HostKeyAcceptError) throw new CliFailure(err.message);
    throw err;
  });
  process.stderr.write(
    result.outcome === 'added'
      ? `mewbo projects accept-host-key: added ${fingerprint} for ${result.name} to ${result.knownHosts}\n`
      : `mewbo projects accept-host-key: ${result.name} is already known with ${fingerprint} (${result.knownHosts})\n`,
  );
  return 0;
}

const subcommands: Record<
  string,
  (r: ProjectRegistry, argv: string[], config: AppConfig) => Promise<number>
> = {
  list,
  add,
  remove,
  'accept-host-key': acceptHostKeyCli,
};

export const projectsCommand: CliCommand = {
  name: 'projects',
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    const fn = sub ? subcommands[sub] : undefined;
    if (!fn) throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'a subcommand is required');
    const paths = homePaths();
    const config = loadConfigFile(paths.configFile);
    const registry = await ProjectRegistry.open({
      stateDir: paths.stateDir,
      home: paths.home,
      configured: config.projects,
      configuredRemote: config.remote_projects,
    });
    try {
      return await fn(registry, rest, config);
    } catch (err) {
      if (err instanceof CliFailure) {
        process.stderr.write(`mewbo projects ${sub}: ${err.message}\n`);
        return 1;
      }
      throw err;
    } finally {
      registry.dispose();
    }
  },
};
