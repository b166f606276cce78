import { RingBuffer } from './ring-buffer';
import { groupDigits } from '../../../shared/group-digits';

// Results are capped (seed: 30,000 characters) by cutting the middle: the first lines say what
// ran and the last say how it ended, so both are kept, and the marker states the rule.

/** Room left for the marker line inside the cap. */
const MARKER_RESERVE_CHARS = 200;

export interface Capped {
  text: string;
  /** Characters cut from the middle (0 when it fit). */
  truncated: number;
}

function marker(omitted: number, head: number, tail: number): string {
  return `\n[... ${groupDigits(omitted)} characters omitted: output over the result cap keeps its first ${groupDigits(head)} and last ${groupDigits(tail)} characters ...]\n`;
}

function halves(cap: number): { head: number; tail: number } {
  const room = Math.max(0, cap - MARKER_RESERVE_CHARS);
  const head = Math.floor(room / 2);
  return { head, tail: room - head };
}

/** `text` if it fits in `cap`, else its head and tail around a marker. */
export function capMiddle(text: string, cap: number): Capped {
  if (text.length <= cap) return { text, truncated: 0 };
  const { head, tail } = halves(cap);
  const omitted = text.length - head - tail;
  return {
    text: text.slice(0, head) + marker(omitted, head, tail) + text.slice(text.length - tail),
    truncated: omitted,
  };
}

/** The same cut for a stream of any length, holding only the head and a tail window. */
export class HeadTailCollector {
  private head = '';
  private readonly tail: RingBuffer;
  private readonly headMax: number;
  private total = 0;

  constructor(private readonly cap: number) {
    const h = halves(cap);
    this.headMax = h.head;
    this.tail = new RingBuffer(Math.max(1, cap));
  }

  append(text: string): void {
    this.total += text.length;
    if (this.head.length < this.headMax) {
      const take = this.headMax - this.head.length;
      this.head += text.slice(0, take);
    }
    this.tail.append(text);
  }

  result(): Capped {
    if (this.total <= this.cap) {
      return { text: this.tail.read().text, truncated: 0 };
    }
    const { tail } = halves(this.cap);
    const end = this.tail.read(this.total - tail).text;
    const omitted = this.total - this.head.length - end.length;
    return {
      text: this.head + marker(omitted, this.head.length, end.length) + end,
      truncated: omitted,
    };
  }
}
