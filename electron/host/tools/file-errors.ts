import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import { PathChangedError } from '../fs/safe-open';
import { similarNames } from '../fs/similar-names';

// Filesystem failures as payloads the model can act on; shared by the file tools.

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** Maps an fs error on `abs` (shown as `shown`) to an error payload; rethrows what is a bug. */
export async function fsErrorPayload(
  err: unknown,
  root: string,
  abs: string,
  shown: string,
): Promise<ErrorPayload> {
  if (err instanceof PathChangedError)
    return errorPayload('path_changed', err.message.replace(err.path, shown), { path: shown });
  switch (errno(err)) {
    case 'ENOENT': {
      const hints = await similarNames(root, abs);
      const hint = hints.length ? ` Did you mean: ${hints.join(', ')}?` : '';
      return errorPayload('not_found', `File not found: ${shown}.${hint}`, {
        path: shown,
        suggestions: hints,
      });
    }
    case 'ENOTDIR':
      return errorPayload(
        'not_found',
        `Not found: ${shown} (a parent is a file, not a directory)`,
        { path: shown },
      );
    case 'EACCES':
    case 'EPERM':
      return errorPayload('permission_denied', `Permission denied: ${shown}`, { path: shown });
    case 'EISDIR':
      return errorPayload('is_directory', `${shown} is a directory`, { path: shown });
    case 'ENOSPC':
    case 'EDQUOT':
      return errorPayload('io_error', `No space left to write ${shown}; nothing was changed`, {
        path: shown,
      });
    case 'EROFS':
      return errorPayload('io_error', `${shown} is on a read-only filesystem`, { path: shown });
    default:
      if (errno(err))
        return errorPayload('io_error', `${errno(err)} on ${shown}: ${(err as Error).message}`, {
          path: shown,
        });
      throw err;
  }
}
