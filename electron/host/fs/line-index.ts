// A sparse map from line number to byte offset for one version of one file, so a window deep in a
// huge file seeks near it instead of rescanning from the start. Built as a side effect of reads;
// memory is one number per LINE_INDEX_STRIDE lines (a 1 GiB file of 100-byte lines: ~2,600).

/** Lines between checkpoints: a seek lands at most this many lines before the wanted one. */
export const LINE_INDEX_STRIDE = 4096;
/** Files whose index is kept per session (least recently used is dropped). */
const LINE_INDEX_CACHE_FILES = 64;

export interface LineIndex {
  /** offsets[k] is the byte offset where line k*LINE_INDEX_STRIDE (0-based) starts. */
  offsets: number[];
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

export class LineIndexCache {
  private readonly entries = new Map<string, LineIndex>();

  /** The index for this path and version, a fresh one if the file changed or was never read. */
  get(path: string, versionKey: string): LineIndex {
    const key = `${path}\0${versionKey}`;
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
    } else {
      for (const k of this.entries.keys()) if (k.startsWith(`${path}\0`)) this.entries.delete(k);
      entry = { offsets: [0], totalLines: null };
    }
    this.entries.set(key, entry);
    while (this.entries.size > LINE_INDEX_CACHE_FILES) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return entry;
  }
}
