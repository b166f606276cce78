import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { homePaths } from '../host/config/paths';
import { moduleDir } from '../host/lsp/resolve-command';
import { REMOTE_VERSION_FILE } from '../host/remote/constants';
import { DAEMON_DIR_NAME, daemonFiles } from '../host/remote/daemon-files';
import { RemoteDaemon } from '../host/remote/remote-daemon';
import { RemotePart } from '../host/remote/remote-part';
import { relay, rendezvous, spawnDaemon } from '../host/remote/remote-relay';
import { findInstallRoot } from '../host/sandbox/launcher';
import { parseCliArgs, UsageError, type CliCommand } from './command';

const usage = `Usage: mewbo remote-part --keepalive-s N [--deny PATH]... [--rendezvous]

Serves this machine's file, shell and language tools to the Mewbo app on stdin/stdout, in the
app's own protocol. The app starts it over SSH for a project on this machine (ssh://host/path);
it is not meant to be run by hand. It joins stdin/stdout to this machine's remote part (a process
of its own, started when none runs), which keeps the sessions' shells running when the
connection drops and ends them once no connection has been attached for N seconds. --deny adds a
path the shells' sandbox denies (the app's own $MEWBO_HOME, should this machine see it).
--rendezvous prints the remote part's socket and token (one JSON line) instead, for an app that
has its SSH connection forward to that socket.`;

/** The version the app installed this bundle as (written beside it), or "dev" in a source tree. */
function bundleVersion(): string {
  const root = findInstallRoot(moduleDir());
  try {
    return root ? readFileSync(join(root, REMOTE_VERSION_FILE), 'utf8').trim() : 'dev';
  } catch {
    return 'dev';
  }
}

export const remotePartCommand: CliCommand = {
  name: 'remote-part',
  usage,
  async run(argv) {
    const { values } = parseCliArgs({
      args: argv,
      options: {
        deny: { type: 'string', multiple: true },
        'keepalive-s': { type: 'string' },
        daemon: { type: 'boolean' },
        rendezvous: { type: 'boolean' },
      },
    });
    const keepaliveS = Number(values['keepalive-s']);
    if (!Number.isInteger(keepaliveS) || keepaliveS < 1)
      throw new UsageError('--keepalive-s takes a whole number of seconds, at least 1');
    const version = bundleVersion();
    const dir = join(homePaths(process.env).home, DAEMON_DIR_NAME);
    const files = daemonFiles(dir, version);
    const startDaemon = () =>
      spawnDaemon(
        dir,
        files,
        argv.filter((a) => a !== '--rendezvous'),
      );
    if (values.rendezvous) {
      process.stdout.write(`${JSON.stringify(await rendezvous({ files, startDaemon }))}\n`);
      return 0;
    }
    if (!values.daemon) {
      await relay({
        files,
        input: process.stdin,
        output: process.stdout,
        startDaemon,
      });
      return 0;
    }
    // Nothing the tools' code prints may reach a link: the daemon's stdout is its log.
    const part = new RemotePart({ version, env: process.env, denied: values.deny ?? [] });
    const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
    const exited = new Promise<void>((resolve) => {
      void RemoteDaemon.start(
        { part, dir, version, keepaliveMs: keepaliveS * 1000, log },
        resolve,
      ).then(
        (daemon) => {
          if (!daemon) {
            log('another remote part of this version already runs');
            resolve();
            return;
          }
          for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
            process.once(signal, () => void daemon.stop());
        },
        (err: Error) => {
          log(`the remote part could not listen on ${files.socket}: ${err.message}`);
          resolve();
        },
      );
    });
    await exited;
    await part.dispose();
    return 0;
  },
};
