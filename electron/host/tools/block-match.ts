// Applies one SEARCH/REPLACE pair to a file's working text (LF endings). Exact matching first;
// only when that fails, the seed's two loose matches (shifted indentation, a leading blank line),
// each accepted only when it matches exactly one place. `...` lines skip unchanged spans.

export type Fallback = 'indentation' | 'leading_blank_line';

export type MatchOutcome =
  | { ok: true; text: string; fallback?: Fallback }
  | { ok: false; reason: 'no_match' | 'ambiguous' | 'bad_dots'; count?: number; detail?: string };

const DOTS_LINE = /^[ \t]*\.\.\.[ \t]*$/;

/**
 * Start offsets of `needle` at line starts of `text` (SEARCH text is whole lines, so a match in
 * the middle of a line is no match), at most `cap` of them.
 */
function occurrences(text: string, needle: string, from = 0, cap = 1000): number[] {
  const at: number[] = [];
  for (
    let i = text.indexOf(needle, from);
    i !== -1 && at.length < cap;
    i = text.indexOf(needle, i + 1)
  ) {
    if (i === 0 || text.charCodeAt(i - 1) === 0x0a) at.push(i);
  }
  return at;
}

/** Exact replacement of a unique occurrence; also matches a last line that lacks its newline. */
function exact(text: string, search: string, replace: string): MatchOutcome {
  const at = occurrences(text, search);
  if (at.length === 1)
    return { ok: true, text: text.slice(0, at[0]) + replace + text.slice(at[0]! + search.length) };
  if (at.length > 1) return { ok: false, reason: 'ambiguous', count: at.length };
  if (search.endsWith('\n') && !text.endsWith('\n')) {
    const bare = search.slice(0, -1);
    const tail = occurrences(text, bare);
    if (tail.length === 1 && tail[0]! + bare.length === text.length) {
      return {
        ok: true,
        text: text.slice(0, tail[0]) + (replace.endsWith('\n') ? replace.slice(0, -1) : replace),
      };
    }
  }
  return { ok: false, reason: 'no_match' };
}

const leading = (s: string): string => /^[ \t]*/.exec(s)![0];
const blank = (s: string): boolean => s.trim() === '';
const toLines = (s: string): string[] => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));

/** SEARCH matches a unique place once every line is re-indented by one common prefix. */
function shiftedIndentation(text: string, search: string, replace: string): MatchOutcome {
  const sLines = toLines(search);
  const rLines = toLines(replace);
  const nonBlank = [...sLines, ...rLines].filter((l) => !blank(l));
  if (!sLines.some((l) => !blank(l))) return { ok: false, reason: 'no_match' };
  const cut = Math.min(...nonBlank.map((l) => leading(l).length));
  const sDed = sLines.map((l) => (blank(l) ? '' : l.slice(cut)));
  const rDed = rLines.map((l) => (blank(l) ? '' : l.slice(cut)));
  const first = sDed.findIndex((l) => l !== '');
  const fileLines = text.split('\n');
  const matches: Array<{ at: number; prefix: string }> = [];
  for (let j = 0; j + sDed.length <= fileLines.length; j++) {
    const anchor = fileLines[j + first]!;
    if (!anchor.endsWith(sDed[first]!)) continue;
    const prefix = anchor.slice(0, anchor.length - sDed[first]!.length);
    if (!/^[ \t]*$/.test(prefix)) continue;
    const fits = sDed.every((l, i) =>
      l === '' ? blank(fileLines[j + i]!) : fileLines[j + i] === prefix + l,
    );
    if (fits) matches.push({ at: j, prefix });
    if (matches.length > 1)
      return { ok: false, reason: 'no_match', detail: 'a re-indented match was ambiguous' };
  }
  const m = matches[0];
  if (!m) return { ok: false, reason: 'no_match' };
  const replaced = rDed.map((l) => (l === '' ? '' : m.prefix + l));
  const out = [...fileLines.slice(0, m.at), ...replaced, ...fileLines.slice(m.at + sDed.length)];
  return { ok: true, text: out.join('\n'), fallback: 'indentation' };
}

/** The SEARCH text with its leading blank lines dropped (and as many from REPLACE), or null. */
function withoutLeadingBlanks(search: string, replace: string): [string, string] | null {
  const s = toLines(search);
  let n = 0;
  while (n < s.length - 1 && blank(s[n]!)) n++;
  if (n === 0) return null;
  const r = toLines(replace);
  let m = 0;
  while (m < n && m < r.length && blank(r[m]!)) m++;
  const join = (lines: string[]): string => (lines.length ? `${lines.join('\n')}\n` : '');
  return [join(s.slice(n)), join(r.slice(m))];
}

function single(text: string, search: string, replace: string): MatchOutcome {
  const first = exact(text, search, replace);
  if (first.ok || first.reason === 'ambiguous') return first;
  const shifted = shiftedIndentation(text, search, replace);
  if (shifted.ok) return shifted;
  const trimmed = withoutLeadingBlanks(search, replace);
  if (trimmed) {
    const second = exact(text, trimmed[0], trimmed[1]);
    if (second.ok) return { ...second, fallback: 'leading_blank_line' };
    const both = shiftedIndentation(text, trimmed[0], trimmed[1]);
    if (both.ok) return { ...both, fallback: 'leading_blank_line' };
  }
  return { ok: false, reason: 'no_match', detail: shifted.detail };
}

function splitDots(s: string): string[] {
  const parts: string[][] = [[]];
  for (const line of toLines(s)) {
    if (DOTS_LINE.test(line)) parts.push([]);
    else parts[parts.length - 1]!.push(line);
  }
  return parts.map((p) => (p.length ? `${p.join('\n')}\n` : ''));
}

/** `...` lines: each SEARCH piece is replaced by its REPLACE piece, in order, skipping what lies between. */
function dotted(text: string, sParts: string[], rParts: string[]): MatchOutcome {
  if (sParts.length !== rParts.length) {
    return {
      ok: false,
      reason: 'bad_dots',
      detail: `SEARCH has ${sParts.length - 1} \`...\` lines and REPLACE has ${rParts.length - 1}; they must pair up`,
    };
  }
  let out = text;
  let pos = 0;
  for (const [i, s] of sParts.entries()) {
    const r = rParts[i]!;
    if (s === '') {
      if (r === '') continue;
      return {
        ok: false,
        reason: 'bad_dots',
        detail: `piece ${i + 1} between \`...\` lines has REPLACE text but no SEARCH text`,
      };
    }
    const at = occurrences(out, s, pos, 2);
    if (at.length === 0)
      return {
        ok: false,
        reason: 'no_match',
        detail: `piece ${i + 1} of the \`...\`-separated SEARCH was not found`,
      };
    if (i === 0 && at.length > 1)
      return { ok: false, reason: 'ambiguous', count: occurrences(out, s).length };
    out = out.slice(0, at[0]) + r + out.slice(at[0]! + s.length);
    pos = at[0]! + r.length;
  }
  return { ok: true, text: out };
}

/** Applies one block. `search` is non-empty (an empty SEARCH is creation/append, handled by the caller). */
export function applySearchReplace(text: string, search: string, replace: string): MatchOutcome {
  const sParts = splitDots(search);
  const rParts = splitDots(replace);
  if (sParts.length > 1 || rParts.length > 1) return dotted(text, sParts, rParts);
  return single(text, search, replace);
}
