// Parses unified diff text (git / `diff -u` style, one or more files) into rows a diff card can draw
// inline or side by side, and `mewbo acp` turns into ACP diff content. Tolerant: a line it does
// not understand becomes a "meta" row, never an exception, because the text may be truncated
// ("... (diff truncated: N more lines)").

export type DiffRowKind = 'context' | 'add' | 'del' | 'hunk' | 'meta';

export interface DiffRow {
  kind: DiffRowKind;
  text: string;
  /** 1-based line numbers on each side; absent where the row has no line on that side. */
  oldLine?: number;
  newLine?: number;
}

export interface DiffFile {
  oldPath: string | null;
  newPath: string | null;
  rows: DiffRow[];
  additions: number;
  deletions: number;
}

/** git's file header: names the file even when no ---/+++ follows (a binary file, a mode change). */
const GIT_HEADER = /^diff --git a\/(.+) b\/(.+)$/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

function stripPrefix(path: string): string | null {
  const p = path.replace(/\t.*$/, '');
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}

export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let oldNo = 0;
  let newNo = 0;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const ensure = (): DiffFile => {
    if (!file) {
      file = { oldPath: null, newPath: null, rows: [], additions: 0, deletions: 0 };
      files.push(file);
    }
    return file;
  };
  // The file a `diff --git` header opened, until its ---/+++ names it (one file, not two).
  let headed: DiffFile | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const git = GIT_HEADER.exec(line);
    if (git) {
      file = { oldPath: git[1]!, newPath: git[2]!, rows: [], additions: 0, deletions: 0 };
      files.push(file);
      headed = file;
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const oldPath = stripPrefix(line.slice(4));
      const newPath = stripPrefix(lines[i + 1]!.slice(4));
      if (headed && headed === file && headed.rows.every((r) => r.kind === 'meta')) {
        headed.oldPath = oldPath;
        headed.newPath = newPath;
      } else {
        file = { oldPath, newPath, rows: [], additions: 0, deletions: 0 };
        files.push(file);
      }
      headed = null;
      i++;
      continue;
    }
    const f = ensure();
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[3]);
      f.rows.push({ kind: 'hunk', text: line });
      continue;
    }
    const sign = line[0];
    if (sign === '+') {
      f.rows.push({ kind: 'add', text: line.slice(1), newLine: newNo++ });
      f.additions++;
    } else if (sign === '-') {
      f.rows.push({ kind: 'del', text: line.slice(1), oldLine: oldNo++ });
      f.deletions++;
    } else if (sign === ' ') {
      f.rows.push({ kind: 'context', text: line.slice(1), oldLine: oldNo++, newLine: newNo++ });
    } else if (!line.startsWith('index ')) {
      f.rows.push({ kind: 'meta', text: line });
    }
  }
  return files;
}

export interface SplitRow {
  left?: DiffRow;
  right?: DiffRow;
  /** Hunk headers and meta lines span both sides. */
  full?: DiffRow;
}

/** Pairs each run of deletions with the additions that follow it, line for line. */
export function toSplitRows(rows: readonly DiffRow[]): SplitRow[] {
  const out: SplitRow[] = [];
  let i = 0;
  while (i < rows.length) {
    const row = rows[i]!;
    if (row.kind === 'context') {
      out.push({ left: row, right: row });
      i++;
    } else if (row.kind === 'del' || row.kind === 'add') {
      const dels: DiffRow[] = [];
      const adds: DiffRow[] = [];
      while (rows[i]?.kind === 'del') dels.push(rows[i++]!);
      while (rows[i]?.kind === 'add') adds.push(rows[i++]!);
      for (let k = 0; k < Math.max(dels.length, adds.length); k++)
        out.push({ left: dels[k], right: adds[k] });
    } else {
      out.push({ full: row });
      i++;
    }
  }
  return out;
}
