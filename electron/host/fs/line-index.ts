import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

// A sparse map from line number to byte offset for one file, so a window deep in a huge file seeks
// near it instead of rescanning from the start. Built as a side effect of reads; memory is one
// number per LINE_INDEX_STRIDE lines (a 1 GiB file of 100-byte lines: ~2,600). A file that only
// grew since it was indexed (a log) keeps its index: what was counted of the old bytes still holds,
// so a read of its new tail counts only the bytes appended.

/** Lines between checkpoints: a seek lands at most this many lines before the wanted one. */
export const LINE_INDEX_STRIDE = 4096;
/** Files whose index is kept per session (least recently used is dropped). */
const LINE_INDEX_CACHE_FILES = 64;
/**
 * Bytes compared at the start of the file and just before its old end to tell a file that only
 * grew from one rewritten: an append leaves both as they were; a rewrite, a truncate-and-write or a
 * rotation (copytruncate) changes them unless it wrote the very same bytes there.
 */
const PREFIX_SAMPLE_BYTES = 4096;

export interface LineIndex {
  /** offsets[k] is the byte offset where line k*LINE_INDEX_STRIDE (0-based) starts. */
  offsets: number[];
  /** The furthest line start a scan passed: line `line` (0-based) starts at byte `pos`. */
  reached: { line: number; pos: number };
  /** Number of lines, once a scan reached the end of the file. */
  totalLines: number | null;
}

/** Identity of one version of a file: any write changes mtime or size, an atomic replace the inode. */
export function fileVersionKey(st: {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

interface Entry {
  version: string;
  /** dev:ino, the file whatever its content. */
  file: string;
  size: number;
  /** The first and the last PREFIX_SAMPLE_BYTES of this version. */
  head: Buffer;
  tail: Buffer;
  index: LineIndex;
}

async function readAt(handle: FileHandle, pos: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buf, 0, length, pos);
  return buf.subarray(0, bytesRead);
}

/** The bytes that stand for the `size`-byte prefix of the file on `handle`: its head and its end. */
async function samples(handle: FileHandle, size: number): Promise<{ head: Buffer; tail: Buffer }> {
  const n = Math.min(PREFIX_SAMPLE_BYTES, size);
  const [head, tail] = await Promise.all([readAt(handle, 0, n), readAt(handle, size - n, n)]);
  return { head, tail };
}

/** Whether the file's first `old.size` bytes still show the head and end `old` sampled. */
async function grewOnly(handle: FileHandle, old: Entry): Promise<boolean> {
  const then = await samples(handle, old.size);
  return then.head.equals(old.head) && then.tail.equals(old.tail);
}

export class LineIndexCache {
  private readonly entries = new Map<string, Entry>();

  /**
   * The index for the file at `path` as `handle` (stat `st`) has it: the one already built for
   * this version, the previous version's carried on when the file only grew (same inode, longer,
   * its old head and old last bytes unchanged), else a fresh one.
   */
  async get(path: string, handle: FileHandle, st: BigIntStats): Promise<LineIndex> {
    const version = fileVersionKey(st);
    const file = `${st.dev}:${st.ino}`;
    const size = Number(st.size);
    const old = this.entries.get(path);
    this.entries.delete(path);
    let entry: Entry;
    if (old?.version === version) entry = old;
    else {
      const now = await samples(handle, size);
      let index: LineIndex = { offsets: [0], reached: { line: 0, pos: 0 }, totalLines: null };
      if (old && old.file === file && size > old.size && (await grewOnly(handle, old))) {
        // A new object: a scan still running on the old version must not set this one's total.
        index = { offsets: [...old.index.offsets], reached: old.index.reached, totalLines: null };
      }
      entry = { version, file, size, head: now.head, tail: now.tail, index };
    }
    this.entries.set(path, entry);
    while (this.entries.size > LINE_INDEX_CACHE_FILES) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return entry.index;
  }
}
