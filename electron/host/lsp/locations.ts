import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Location, LocationLink, Range } from 'vscode-languageserver-protocol/node';
import { EXCERPT_CHARS } from './constants';
import { isInside } from './find-root';

// Turning server positions into what the model reads: a path relative to the project root (an
// absolute one outside it, e.g. a library's .d.ts), a 0-based line/character, and the source line.

export interface PlacedLocation {
  file: string;
  line: number;
  character: number;
  end_line: number;
  end_character: number;
  excerpt: string;
}

export function displayPath(file: string, projectRoot: string): string {
  return isInside(file, projectRoot) ? relative(projectRoot, file) || '.' : file;
}

export function uriToPath(uri: string): string | null {
  return uri.startsWith('file:') ? fileURLToPath(uri) : null;
}

/** Definition results come as one Location, a list, or LocationLinks; flatten to uri + range. */
export function flattenLocations(
  result: Location | Location[] | LocationLink[] | null | undefined,
): { uri: string; range: Range }[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((item) =>
    'targetUri' in item
      ? { uri: item.targetUri, range: item.targetSelectionRange ?? item.targetRange }
      : { uri: item.uri, range: item.range },
  );
}

/** Reads each file once per call; a file that cannot be read just has no excerpts. */
export class LineReader {
  private readonly cache = new Map<string, Promise<string[] | null>>();

  constructor(private readonly known: (file: string) => string | undefined = () => undefined) {}

  lines(file: string): Promise<string[] | null> {
    let entry = this.cache.get(file);
    if (!entry) {
      const text = this.known(file);
      entry =
        text !== undefined
          ? Promise.resolve(text.split(/\r?\n/))
          : readFile(file, 'utf8').then(
              (t) => t.split(/\r?\n/),
              () => null,
            );
      this.cache.set(file, entry);
    }
    return entry;
  }

  async excerpt(file: string, line: number): Promise<string> {
    const text = (await this.lines(file))?.[line]?.trim() ?? '';
    return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  }
}

export async function placeLocations(
  locations: { uri: string; range: Range }[],
  projectRoot: string,
  reader: LineReader,
): Promise<PlacedLocation[]> {
  const seen = new Set<string>();
  const out: PlacedLocation[] = [];
  for (const { uri, range } of locations) {
    const key = `${uri}:${range.start.line}:${range.start.character}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const file = uriToPath(uri);
    out.push({
      file: file ? displayPath(file, projectRoot) : uri,
      line: range.start.line,
      character: range.start.character,
      end_line: range.end.line,
      end_character: range.end.character,
      excerpt: file ? await reader.excerpt(file, range.start.line) : '',
    });
  }
  return out;
}
