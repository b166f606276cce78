import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../host/config/permission-modes';

import { UsageError } from './usage-error';

export { UsageError };

/**
 * One `mewbo` subcommand, loaded only when it runs (its name and summary are in ./commands). Exit
 * codes: 0 success, 1 a failure the command reports, 2 bad usage.
 */
export interface CliCommand {
  name: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** node:util parseArgs, its complaints turned into usage errors (exit 2 with the usage text). */
export function parseCliArgs<T extends ParseArgsConfig>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The --permission-mode flag shared by `mewbo run` and `mewbo mcp`; undefined when absent. */
export function permissionModeOption(value: string | undefined): PermissionMode | undefined {
  if (value === undefined) return undefined;
  const mode = value as PermissionMode;
  if (!PERMISSION_MODES.includes(mode)) {
    throw new UsageError(
      `--permission-mode: '${mode}' is not one of ${PERMISSION_MODES.join(', ')}`,
    );
  }
  return mode;
}

/** A --port flag: 0 (a free port) to 65535; undefined when absent. */
export function portOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`--port: not a port number: ${value}`);
  return port;
}
