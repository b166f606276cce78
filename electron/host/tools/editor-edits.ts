import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import { atomicWriteAll, type FileChange } from '../fs/atomic-write';
import { fsErrorPayload } from './file-errors';
import type { ToolContext } from './tool';

// Where an edit tool's text comes from and its new text goes. With an editor that both reads and
// writes files for the session (`mewbo acp`, tools/editor-files.ts), the edit applies to the
// editor's buffer (unsaved changes included) and the result is written through the editor, so it
// shows the change; else the file on disk and the app's own atomic write. Either way the tool has
// already checked every path, and dispatch has taken the turn's checkpoint before the call.

/** The editor's text of a file edits apply to, when the edit's result will go back to the editor. */
export function editorBuffers(
  ctx: ToolContext,
): ((abs: string) => Promise<string | null>) | undefined {
  const editor = ctx.services.editorFiles;
  return editor?.readText && editor.writeText ? (abs) => editor.readText!(abs) : undefined;
}

export interface EditWrite extends FileChange {
  /** The path as the payloads show it (relative to the root). */
  shown: string;
}

/**
 * Writes an edit's files, all or none: through the editor when it takes writes (what it took is
 * given back its earlier text if a later file is refused), else atomically on disk. Null when
 * written, else the error payload to return (nothing changed).
 */
export async function writeEdits(
  ctx: ToolContext,
  root: string,
  changes: EditWrite[],
): Promise<ErrorPayload | null> {
  const editor = ctx.services.editorFiles;
  if (!editor?.writeText) {
    try {
      await atomicWriteAll(root, changes);
      return null;
    } catch (err) {
      const first = changes[0]!;
      return fsErrorPayload(err, root, first.path, first.shown);
    }
  }
  const written: EditWrite[] = [];
  for (const change of changes) {
    try {
      await editor.writeText(change.path, text(change.after));
      written.push(change);
    } catch (err) {
      for (const back of written.reverse())
        await editor.writeText(back.path, text(back.before)).catch(() => {});
      return errorPayload(
        'editor_write_failed',
        `The editor did not take the edit of ${change.shown}: ${(err as Error).message}. Nothing was changed.`,
        { path: change.shown },
      );
    }
  }
  return null;
}

function text(content: string | Uint8Array | null): string {
  if (content === null) return '';
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}
