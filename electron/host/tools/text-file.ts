import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import { openForRead } from '../fs/safe-open';
import { decodeUtf8 } from '../fs/text-sniff';
import { EDIT_MAX_FILE_BYTES } from './constants';
import { fsErrorPayload } from './file-errors';

// A file as the edit tools see it: UTF-8 text with LF line endings. A file that uses CRLF
// throughout is matched and edited as LF and written back as CRLF, so its endings survive an edit
// whatever the model typed; a file with mixed endings is edited byte for byte.

export type Eol = 'lf' | 'crlf' | 'mixed';

export interface EditableText {
  exists: boolean;
  /** The content exactly as on disk, or in the editor's buffer ('' for a file not there yet). */
  original: string;
  /** The content edits apply to (CRLF turned into LF for a pure-CRLF file). */
  text: string;
  eol: Eol;
}

export function detectEol(text: string): Eol {
  let lf = 0;
  let crlf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    lf++;
    if (i > 0 && text.charCodeAt(i - 1) === 0x0d) crlf++;
  }
  if (crlf === 0) return 'lf';
  return crlf === lf ? 'crlf' : 'mixed';
}

/** Brings text the model wrote into the file's working form (its CRLF becomes LF where the file's does). */
export function normalizeModelText(s: string, eol: Eol): string {
  return eol === 'mixed' ? s : s.replace(/\r\n/g, '\n');
}

/** The working text back in the file's own line endings. */
export function restoreEol(text: string, eol: Eol): string {
  return eol === 'crlf' ? text.replace(/\n/g, '\r\n') : text;
}

/**
 * Loads `abs` for editing; a missing file is `exists: false`, anything unusable an error payload.
 * With `buffer` (the editor's text, tools/editor-edits.ts), a file that passed every check on disk
 * is edited as the editor holds it.
 */
export async function loadEditableText(
  root: string,
  abs: string,
  shown: string,
  buffer?: (abs: string) => Promise<string | null>,
): Promise<EditableText | ErrorPayload> {
  let bytes: Buffer;
  try {
    // Opened without following a planted link or blocking on a FIFO, and verified to be `abs`.
    const { handle, stat: st } = await openForRead(root, abs);
    try {
      if (st.isDirectory())
        return errorPayload('is_directory', `${shown} is a directory, not a file`, { path: shown });
      if (!st.isFile())
        return errorPayload('not_regular_file', `${shown} is not a regular file`, { path: shown });
      if (st.size > EDIT_MAX_FILE_BYTES) {
        return errorPayload(
          'too_large',
          `${shown} is ${st.size} bytes; edits are limited to ${EDIT_MAX_FILE_BYTES} bytes`,
          { path: shown },
        );
      }
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { exists: false, original: '', text: '', eol: 'lf' };
    return fsErrorPayload(err, root, abs, shown);
  }
  const original = (await buffer?.(abs)) ?? decodeUtf8(bytes);
  if (original === null || original.includes('\0')) {
    return errorPayload(
      'binary_file',
      `${shown} is not UTF-8 text; the edit tools only change text files`,
      { path: shown },
    );
  }
  const eol = detectEol(original);
  return {
    exists: true,
    original,
    text: eol === 'crlf' ? original.replace(/\r\n/g, '\n') : original,
    eol,
  };
}
