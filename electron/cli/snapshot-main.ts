import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startupSnapshot } from 'node:v8';
import type { CliCommand } from './command';
import { exitWith, runCommand } from './run-command';

// `mewbo tool` from a V8 start-up snapshot (issue #26 part 4). The build runs a snapshot's entry
// (./tool-snapshot.ts, ./read-file-snapshot.ts) once with `node --build-snapshot`
// (build/tool-snapshot.mjs): it loads the command's modules, builds their schemas and runs
// read_file once on a file of its own, so the functions a tool call runs are compiled; Node then
// saves the whole heap as a blob. `mewbo` (the launcher, dist/mewbo) starts
// `node --snapshot-blob BLOB tool ...`, which deserializes that heap instead of loading, compiling
// and initializing a bundle, and calls the main function set here: instructions of `mewbo tool
// read_file` 243M -> 143M against `node -e 0`'s 82M (callgrind).
//
// What a snapshot cannot hold stays out of the warm-up: no handle is left open (the file is read
// and closed, its folder removed), no process listener is added, and nothing read from the
// environment is kept (the command reads $MEWBO_HOME, the root and the config when it runs).
// Paths found from import.meta.url are the build's dist/, and a blob only loads in the Node that
// built it: the launcher checks both before it uses a blob, and runs dist/cli.js otherwise.

/**
 * Makes the snapshot being built run `mewbo tool` with `commandFor(ARGV)` when deserialized; `warm`
 * runs read_file once now.
 */
export function startToolSnapshot(
  warm: CliCommand,
  commandFor: (argv: string[]) => CliCommand,
): void {
  const dir = mkdtempSync(join(tmpdir(), 'mewbo-snapshot-'));
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
  void warm
    .run(['read_file', '--root', dir, '--args', '{"path":"a.txt"}'])
    .finally(() => rmSync(dir, { recursive: true, force: true }));
  startupSnapshot.setDeserializeMainFunction(() => {
    // process.argv is [node, 'tool', ...]: a snapshot has no script name.
    const [name, ...rest] = process.argv.slice(1);
    if (name !== 'tool') {
      process.stderr.write(`mewbo: this snapshot runs 'mewbo tool' only, not '${name ?? ''}'\n`);
      process.exitCode = 2;
      return;
    }
    exitWith(runCommand(name, commandFor(rest), rest));
  });
}
