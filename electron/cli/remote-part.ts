import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { moduleDir } from '../host/lsp/resolve-command';
import { REMOTE_VERSION_FILE } from '../host/remote/constants';
import { RemotePart } from '../host/remote/remote-part';
import { findInstallRoot } from '../host/sandbox/launcher';
import { parseCliArgs, type CliCommand } from './command';

const usage = `Usage: mewbo remote-part [--deny PATH]...

Serves this machine's file, shell and language tools to the Mewbo app on stdin/stdout, in the
app's own protocol. The app starts it over SSH for a project on this machine (ssh://host/path);
it is not meant to be run by hand. --deny adds a path the shells' sandbox denies (the app's own
$MEWBO_HOME, should this machine see it).`;

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
      options: { deny: { type: 'string', multiple: true } },
    });
    // stdout carries the frames: anything else the code prints (console.log) goes to stderr,
    // which reaches the app as the channel's diagnostics instead of corrupting a frame.
    const frames = process.stdout.write.bind(process.stdout);
    process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
    const output = new Writable({
      write(chunk, _encoding, done) {
        frames(chunk as Buffer, done);
      },
    });
    const part = new RemotePart({
      version: bundleVersion(),
      env: process.env,
      denied: values.deny ?? [],
    });
    try {
      await part.serve(process.stdin, output);
    } finally {
      await part.dispose();
    }
    return 0;
  },
};
