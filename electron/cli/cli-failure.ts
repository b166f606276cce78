import { createInterface } from 'node:readline/promises';
import { HostError } from '../host/rpc/host-error';
import { SessionNotFoundError } from '../host/sessions/session-manager';
import { ImportError } from '../host/sessions/session-transfer';

/** A failure a `mewbo sessions` subcommand reports in one line and exits 1 for. */
export class CliFailure extends Error {}

/** The host's refusals become a CliFailure (their message is for the user); bugs stay thrown. */
export function failure(err: unknown): never {
  if (
    err instanceof SessionNotFoundError ||
    err instanceof HostError ||
    err instanceof ImportError
  ) {
    throw new CliFailure(err.message);
  }
  throw err;
}

/**
 * Whether to go on with something that cannot be undone: yes with `--yes`, else the user's
 * answer on a terminal; with no terminal to ask, a refusal saying `--yes` is needed.
 */
export async function confirmed(question: string, yes: boolean, refusal: string): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) throw new CliFailure(refusal);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`${question} [y/N] `);
  rl.close();
  if (/^y(es)?$/i.test(answer.trim())) return true;
  process.stdout.write('Nothing was changed.\n');
  return false;
}
