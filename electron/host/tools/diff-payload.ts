import type { ToolPayload } from '../../../shared/tools/payload';
import { unifiedDiff } from '../fs/unified-diff';

// The result of both edit backends (seed): {kind: "diff", title, text, files, additions, deletions}.

export interface EditedFile {
  /** Path shown to the model, relative to the root. */
  shown: string;
  /** Working text before (LF endings for CRLF files, so the diff reads cleanly); "" if created. */
  before: string;
  after: string;
  created: boolean;
}

function title(files: EditedFile[], additions: number, deletions: number): string {
  const counts = `(+${additions} -${deletions})`;
  if (files.length === 1)
    return `${files[0]!.created ? 'Created' : 'Edited'} ${files[0]!.shown} ${counts}`;
  return `Edited ${files.length} files ${counts}`;
}

export function diffPayload(files: EditedFile[], extra: Record<string, unknown> = {}): ToolPayload {
  let additions = 0;
  let deletions = 0;
  const texts: string[] = [];
  for (const f of files) {
    const d = unifiedDiff(f.before, f.after, { path: f.shown, created: f.created });
    additions += d.additions;
    deletions += d.deletions;
    if (d.text) texts.push(d.text);
  }
  return {
    kind: 'diff',
    title: title(files, additions, deletions),
    text: texts.join(''),
    files: files.map((f) => f.shown),
    additions,
    deletions,
    ...extra,
  };
}
