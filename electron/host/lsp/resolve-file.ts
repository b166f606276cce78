import { stat } from 'node:fs/promises';
import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import { safeResolve } from '../fs/safe-path';

// A model-given file_path, resolved by the tools' one path gate (inside the session root after
// symlinks, never widened), and required to be an existing regular file. The path comes back
// real, so one file is one document on the server however it was named.

export async function resolveProjectFile(
  projectRoot: string,
  filePath: string,
): Promise<{ file: string; root: string } | ErrorPayload> {
  const resolved = safeResolve(projectRoot, undefined, filePath, { label: 'file_path' });
  if (!resolved.ok) return resolved.error;
  const info = await stat(resolved.path).catch(() => null);
  if (!info)
    return errorPayload('not_found', `${filePath} does not exist`, { file_path: filePath });
  if (!info.isFile())
    return errorPayload('invalid_args', `${filePath} is not a file`, { file_path: filePath });
  return { file: resolved.path, root: resolved.root };
}
