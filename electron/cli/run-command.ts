import type { CliCommand } from './command';
import { UsageError } from './usage-error';
import { ConfigError } from '../host/config/config-error';

// How `mewbo NAME ...` runs a loaded command: its --help, its exit code, and how its failures
// print. Shared by the CLI's entry (electron/cli.ts) and `mewbo tool`'s start-up snapshots
// (./snapshot-main.ts), so a command answers the same whichever way it started.

/** Runs `command` (named `name` on the command line) with its arguments; resolves its exit code. */
export async function runCommand(
  name: string,
  command: CliCommand,
  rest: string[],
): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`mewbo ${name}: ${err.message}\n${command.usage}\n`);
      return 2;
    }
    // configs/app.json holds a value the command will not act on: the message names the key.
    if (err instanceof ConfigError) {
      process.stderr.write(`mewbo ${name}: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`mewbo ${name}: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

/** Sets the process's exit code from `run`, printing a failure that escaped the command. */
export function exitWith(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
