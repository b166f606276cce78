// zod's core error class, which classic zod's and zod/mini's errors both are: this module is on
// `mewbo tool read_file`'s path, which must not load classic zod (cli/zod-jitless.ts).
import { $ZodError } from 'zod/v4/core';
import type { RpcError } from '../../../shared/protocol/wire';

/** An error a client should see as is: a code and a precise message. */
export class HostError extends Error {
  override name = 'HostError';
  constructor(
    readonly code: string,
    message: string,
    /** What exactly was wrong, one entry per thing (a conflicting file), for a client to list. */
    readonly issues?: RpcError['issues'],
  ) {
    super(message);
  }
}

export function toRpcError(err: unknown): RpcError {
  if (err instanceof $ZodError) {
    const issues = err.issues.map((i) => ({
      path: i.path.join('.') || '(root)',
      message: i.message,
    }));
    return {
      code: 'invalid_params',
      message: issues.map((i) => `${i.path}: ${i.message}`).join('; '),
      issues,
    };
  }
  if (err instanceof HostError && err.issues)
    return { code: err.code, message: err.message, issues: err.issues };
  if (
    err &&
    typeof err === 'object' &&
    'code' in err &&
    typeof (err as { code: unknown }).code === 'string' &&
    err instanceof Error
  ) {
    return { code: (err as { code: string }).code, message: err.message };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}
