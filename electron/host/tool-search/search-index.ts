import type { AnyTool } from '../tools/tool';
import { stem, words } from './query';
import { synonymTable, type SynonymTable } from './synonyms';

/** `mcp__<server>__<tool>` -> server and bare tool name; a built-in has no server. */
export function splitToolName(name: string): { server: string | null; bare: string } {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1]!, bare: m[2]! } : { server: null, bare: name };
}

export interface IndexedTool {
  tool: AnyTool;
  fullLower: string;
  bareLower: string;
  serverWords: ReadonlySet<string>;
  nameWords: ReadonlySet<string>;
  descWords: ReadonlySet<string>;
  descLower: string;
}

/** The searchable form of the tools an agent was granted, built per search (sets are small). */
export class SearchIndex {
  readonly entries: IndexedTool[];
  readonly synonyms: SynonymTable = synonymTable(stem);
  private readonly df = new Map<string, number>();

  constructor(tools: readonly AnyTool[]) {
    this.entries = tools.map((tool) => {
      const { server, bare } = splitToolName(tool.name);
      const entry: IndexedTool = {
        tool,
        fullLower: tool.name.toLowerCase(),
        bareLower: bare.toLowerCase(),
        serverWords: new Set(server ? words(server) : []),
        nameWords: new Set(words(bare)),
        descWords: new Set(words(tool.description)),
        descLower: tool.description.toLowerCase(),
      };
      for (const w of new Set([...entry.nameWords, ...entry.descWords]))
        this.df.set(w, (this.df.get(w) ?? 0) + 1);
      return entry;
    });
  }

  /** Rarer words say more about which tool is meant ("merge" beats "list" among 200 tools). */
  idf(word: string): number {
    return Math.log(1 + this.entries.length / (1 + (this.df.get(word) ?? 0)));
  }
}

/** Levenshtein distance, stopping early past `max` (typo tolerance for longer words only). */
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return false;
    prev = cur;
  }
  return prev[b.length]! <= max;
}
