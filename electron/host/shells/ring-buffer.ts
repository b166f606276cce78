// A shell's retained output: at most `capacity` characters, addressed by absolute cursors that
// count every character ever written, so a reader that passes back its cursor gets only what
// came after it, and one whose cursor fell behind the evicted part learns how much it missed.

/** Appends smaller than this are joined onto the last chunk: a keystroke-sized chunk each would cost more in bookkeeping than in text. */
const COALESCE_BELOW_CHARS = 16_384;

export interface Slice {
  text: string;
  /** Absolute cursor of text[0]. */
  from: number;
  /** Absolute cursor just past the text. */
  to: number;
  /** Characters between the requested cursor and the oldest retained one. */
  missed: number;
}

export class RingBuffer {
  private chunks: string[] = [];
  /** Absolute cursor of each chunk's first character (before eviction trimmed it). */
  private starts: number[] = [];
  private head = 0;
  private total = 0;
  private retained = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
  }

  /** Characters ever written: the cursor a reader holds after reading everything. */
  get end(): number {
    return this.total;
  }

  /** Chunk slots held, evicted ones included until compaction: what bounds the bookkeeping. */
  get slots(): number {
    return this.chunks.length;
  }

  /** Absolute cursor of the oldest retained character. */
  get start(): number {
    return this.total - this.retained;
  }

  append(text: string): void {
    if (text.length === 0) return;
    if (text.length > this.capacity) {
      // Only its tail can be kept; dropping the rest now keeps memory at the capacity.
      const dropped = text.length - this.capacity;
      this.total += dropped;
      this.chunks = [];
      this.starts = [];
      this.head = 0;
      this.retained = 0;
      text = text.slice(dropped);
    }
    const last = this.chunks.length - 1;
    if (last >= this.head && this.chunks[last]!.length < COALESCE_BELOW_CHARS) {
      this.chunks[last] += text;
    } else {
      this.chunks.push(text);
      this.starts.push(this.total);
    }
    this.total += text.length;
    this.retained += text.length;
    this.evict();
  }

  private evict(): void {
    while (this.retained > this.capacity) {
      const first = this.chunks[this.head]!;
      const startOfFirst = this.start;
      const liveInFirst = this.starts[this.head]! + first.length - startOfFirst;
      const excess = this.retained - this.capacity;
      if (excess >= liveInFirst) {
        this.retained -= liveInFirst;
        this.chunks[this.head] = '';
        this.head++;
      } else {
        this.retained -= excess;
      }
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.starts = this.starts.slice(this.head);
      this.head = 0;
    }
  }

  /** Index of the chunk holding absolute cursor `pos` (start <= pos < end). */
  private chunkAt(pos: number): number {
    let lo = this.head;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Retained output from `cursor` (default: the oldest retained) up to `limit` characters.
   * A cursor past the end reads nothing; one before the start reads from the start.
   */
  read(cursor?: number, limit = Infinity): Slice {
    const start = this.start;
    const requested = cursor ?? start;
    const from = Math.min(Math.max(requested, start), this.total);
    const missed = Math.max(0, start - requested);
    const to = Math.min(this.total, from + Math.max(0, limit));
    if (to <= from) return { text: '', from, to: from, missed };
    const parts: string[] = [];
    let i = this.chunkAt(from);
    let pos = from;
    while (pos < to) {
      const chunk = this.chunks[i]!;
      const offset = pos - this.starts[i]!;
      const take = Math.min(chunk.length - offset, to - pos);
      parts.push(
        offset === 0 && take === chunk.length ? chunk : chunk.slice(offset, offset + take),
      );
      pos += take;
      i++;
    }
    return { text: parts.join(''), from, to, missed };
  }
}
