import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import type { Position } from './lsp-service';

// A model-given position checked against the text the server was sent: a line past the end is
// refused with the file's length, a character past the end of its line with the line itself.

export function checkPosition(
  text: string,
  pos: Position,
  filePath: string,
): ErrorPayload | undefined {
  const lines = text.split(/\r?\n/);
  if (pos.line >= lines.length) {
    return errorPayload(
      'invalid_args',
      `line ${pos.line} is past the end of ${filePath} (${lines.length} lines, counted from 0)`,
    );
  }
  const length = lines[pos.line]!.length;
  if (pos.character > length) {
    return errorPayload(
      'invalid_args',
      `character ${pos.character} is past the end of line ${pos.line} of ${filePath} (${length} characters, counted from 0)`,
      { line_text: lines[pos.line]!.slice(0, 200) },
    );
  }
  return undefined;
}
