/* eslint-disable @typescript-eslint/no-explicit-any -- reads whatever JSON a client sends */
import { createHash } from 'node:crypto';

// The Messages API's prompt cache as its documentation describes it, for the fake server: the
// prompt is the sequence tools, system, messages' content blocks; a cache_control block marks a
// breakpoint; a request reads the longest cached prefix that ends at a breakpoint or at most 20
// blocks before one, writes the prefix up to its last breakpoint, and pays full price for the
// rest. Entries shorter than the model's minimum (1024 tokens for Sonnet/Opus) are not cached.
// Tokens are estimated at 4 characters each.

export const CACHE_LOOKBACK_BLOCKS = 20;
export const MAX_BREAKPOINTS = 4;

export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

const strip = (b: any) => {
  if (!b || typeof b !== 'object') return b;
  const { cache_control: _drop, ...rest } = b;
  return rest;
};

/** The prompt as blocks, in the order the API caches them, each with its breakpoint flag. */
export function promptBlocks(body: any): { json: string; breakpoint: boolean }[] {
  const out: { json: string; breakpoint: boolean }[] = [];
  for (const t of body.tools ?? [])
    out.push({ json: JSON.stringify(strip(t)), breakpoint: !!t.cache_control });
  const system =
    typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const b of system)
    out.push({ json: JSON.stringify(strip(b)), breakpoint: !!b.cache_control });
  for (const m of body.messages ?? []) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of content ?? [])
      out.push({ json: `${m.role}:${JSON.stringify(strip(b))}`, breakpoint: !!b.cache_control });
  }
  return out;
}

export class PromptCache {
  private readonly entries = new Set<string>();
  constructor(private readonly minTokens = 1024) {}

  /** Usage of one request; records what it writes. Throws on more breakpoints than the API allows. */
  use(body: any): CacheUsage {
    const blocks = promptBlocks(body);
    const marks = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (marks.length > MAX_BREAKPOINTS)
      throw new Error(
        `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks.length}.`,
      );
    const tokens = blocks.map((b) => Math.ceil(b.json.length / 4));
    const hashes: string[] = [];
    const h = createHash('sha256');
    for (const b of blocks) {
      h.update(b.json);
      hashes.push(h.copy().digest('hex'));
    }
    const upTo = (end: number) => tokens.slice(0, end).reduce((a, b) => a + b, 0);
    let readEnd = 0;
    for (const m of marks)
      for (let j = m; j >= Math.max(0, m - CACHE_LOOKBACK_BLOCKS); j--)
        if (this.entries.has(hashes[j]!)) {
          readEnd = Math.max(readEnd, j + 1);
          break;
        }
    const last = marks.length ? marks[marks.length - 1]! + 1 : 0;
    const writeEnd = Math.max(readEnd, last);
    for (const m of marks) if (upTo(m + 1) >= this.minTokens) this.entries.add(hashes[m]!);
    const total = upTo(blocks.length);
    const read = upTo(readEnd);
    const written = upTo(writeEnd) >= this.minTokens ? upTo(writeEnd) - read : 0;
    return {
      input_tokens: total - read - written,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written,
    };
  }
}
