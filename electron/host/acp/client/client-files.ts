import { relative } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { atomicWriteFile } from '../../fs/atomic-write';
import { PathValidationError, resolveInsideRoot } from '../../fs/safe-path';
import { isPolicyPath } from '../../sandbox/policy-paths';
import { loadEditableText } from '../../tools/text-file';

// The client's `fs` for an external agent (issue 30 part 3): the app's own file handling, never
// a plain open. A path is used only if, every symlink followed, it lies in the session's root
// (fs/safe-path.ts); reads open without following a planted link or blocking on a FIFO and check
// the descriptor is the resolved file (fs/safe-open.ts); writes replace the file atomically
// through a verified parent directory (fs/atomic-write.ts), after the turn's checkpoint. The
// files the app obeys or runs (.mewbo/, .claude/, .git/, .mcp.json) are never written for an
// agent. Each refusal is a JSON-RPC error whose message says what was wrong.

export interface ClientFilesDeps {
  root: string;
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
  const loaded = await loadEditableText(deps.root, abs, relative(deps.root, abs));
  if ('kind' in loaded) throw RequestError.invalidParams({ path: req.path }, loaded.message);
  if (!loaded.exists) throw RequestError.resourceNotFound(req.path);
  if (!req.line && !req.limit) return loaded.original;
  const lines = loaded.original.split('\n');
  const from = Math.max(0, (req.line ?? 1) - 1);
  const to = req.limit ? from + req.limit : lines.length;
  return lines.slice(from, to).join('\n');
}

export async function writeTextFile(
  deps: ClientFilesDeps,
  req: { path: string; content: string },
): Promise<void> {
  const abs = inside(deps.root, req.path);
  const rel = relative(deps.root, abs);
  if (isPolicyPath(rel))
    throw RequestError.invalidParams(
      { path: req.path },
      `${rel} is a file the app obeys or runs (settings, hooks, MCP servers, git); an external agent may not write it. Ask the user to make this change.`,
    );
  await deps.beforeWrite();
  try {
    await atomicWriteFile(deps.root, abs, req.content);
  } catch (err) {
    throw RequestError.invalidParams(
      { path: req.path },
      `could not write ${rel}: ${(err as Error).message}`,
    );
  }
}
