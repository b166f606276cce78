import { relative } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { atomicWriteFile } from '../../fs/atomic-write';
import { PathValidationError, resolveInsideRoot } from '../../fs/safe-path';
import { diffPayload } from '../../tools/diff-payload';
import { fileEditTool } from '../../tools/file-edit';
import { readFileTool } from '../../tools/read-file';
import { loadEditableText } from '../../tools/text-file';
import type { ClientJudge } from './client-judge';

// The client's `fs` for an external agent (issue 30 part 3): the app's own file handling, never
// a plain open. A path is used only if, every symlink followed, it lies in the session's root
// (fs/safe-path.ts); reads open without following a planted link or blocking on a FIFO and check
// the descriptor is the resolved file (fs/safe-open.ts); writes replace the file atomically
// through a verified parent directory (fs/atomic-write.ts), after the turn's checkpoint. Each
// read and write is first judged as the app's read_file or file_edit_tool call (client-judge.ts):
// the user's rules, the mode, the approval card, and the files the app obeys or runs (.mewbo/,
// .claude/, .mcp.json, .git/hooks, .git/config) asked for in every mode. Each refusal is a
// JSON-RPC error whose message says what was wrong.

export interface ClientFilesDeps {
  root: string;
  judge: ClientJudge;
  /** Snapshots the project's files before the turn's first write (rewind). */
  beforeWrite(): Promise<void>;
}

function inside(root: string, path: string): string {
  try {
    return resolveInsideRoot(root, path);
  } catch (err) {
    if (err instanceof PathValidationError) throw RequestError.invalidParams({ path }, err.message);
    throw err;
  }
}

export async function readTextFile(
  deps: ClientFilesDeps,
  req: { path: string; line?: number | null; limit?: number | null },
): Promise<string> {
  const abs = inside(deps.root, req.path);
  const rel = relative(deps.root, abs);
  const allowed = await deps.judge({
    tool: readFileTool,
    args: { path: rel },
    covers: (g) => g.paths.has(abs),
  });
  const loaded = await loadEditableText(deps.root, abs, rel);
  if ('kind' in loaded) throw RequestError.invalidParams({ path: req.path }, loaded.message);
  if (!loaded.exists) throw RequestError.resourceNotFound(req.path);
  let text = loaded.original;
  if (req.line || req.limit) {
    const lines = text.split('\n');
    const from = Math.max(0, (req.line ?? 1) - 1);
    const to = req.limit ? from + req.limit : lines.length;
    text = lines.slice(from, to).join('\n');
  }
  await allowed.after({ kind: 'text', path: rel, text });
  return text;
}

export async function writeTextFile(
  deps: ClientFilesDeps,
  req: { path: string; content: string },
): Promise<void> {
  const abs = inside(deps.root, req.path);
  const rel = relative(deps.root, abs);
  const before = await loadEditableText(deps.root, abs, rel);
  if ('kind' in before) throw RequestError.invalidParams({ path: req.path }, before.message);
  // The whole file replaced is the edit tool's substitution of all of it (an empty file's, an append).
  const allowed = await deps.judge({
    tool: fileEditTool,
    args: { file_path: rel, old_string: before.original, new_string: req.content },
    covers: (g) => g.paths.has(abs),
  });
  await deps.beforeWrite();
  try {
    await atomicWriteFile(deps.root, abs, req.content);
  } catch (err) {
    throw RequestError.invalidParams(
      { path: req.path },
      `could not write ${rel}: ${(err as Error).message}`,
    );
  }
  await allowed.after(
    diffPayload([
      { shown: rel, before: before.original, after: req.content, created: !before.exists },
    ]),
  );
}
