import type { ConfigWarning } from '../rules/settings-sources';
import { lazyRequire } from '../system/lazy-require';

/** The YAML parser (a quarter of the host's bundle) loads with the first front matter read. */
const yaml = lazyRequire<typeof import('yaml')>('yaml');

// YAML front matter, as SKILL.md and command files carry it: `---` on the first line, YAML, then
// `---`. Parsed as YAML (not by regex), with errors given as file lines.

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the body's first line. */
  bodyLine: number;
}

/** Null data (with a warning) when the front matter is present but not valid YAML of a mapping. */
export function readFrontMatter(
  text: string,
  file: string,
  warnings: ConfigWarning[],
): FrontMatter | null {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!src.startsWith('---\n')) return { data: {}, body: src, bodyLine: 1 };
  const end = src.indexOf('\n---', 3);
  const close = end === -1 ? -1 : src.indexOf('\n', end + 1);
  if (end === -1) {
    warnings.push({ file, line: 1, message: 'front matter opened with --- is never closed' });
    return null;
  }
  const yamlText = src.slice(4, end + 1);
  const doc = yaml().parseDocument(yamlText);
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = (e.linePos?.[0]?.line ?? 1) + 1;
    warnings.push({
      file,
      line,
      message: `front matter is not valid YAML: ${e.message.split('\n')[0]}`,
    });
    return null;
  }
  const data: unknown = doc.toJS();
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    warnings.push({ file, line: 2, message: 'front matter must be a YAML mapping (key: value)' });
    return null;
  }
  const body = close === -1 ? '' : src.slice(close + 1);
  return {
    data: (data ?? {}) as Record<string, unknown>,
    body,
    bodyLine: src.slice(0, close === -1 ? src.length : close + 1).split('\n').length,
  };
}

/** The line (1-based) of `key:` in the front matter, for a warning about its value. */
export function keyLine(text: string, key: string): number | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const i = lines.findIndex((l, n) => n > 0 && l.startsWith(`${key}:`));
  return i === -1 ? undefined : i + 1;
}
