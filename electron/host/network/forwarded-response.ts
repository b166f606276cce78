import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_HEADER_BYTES, RELAY_BUFFER_BYTES } from './constants';

// The destination's answer to one forwarded plain-HTTP request, read straight off the
// destination's socket into one buffer of its own (node's onread) and written to the client's
// ServerResponse as it is: the head is parsed here (status, headers, how the body is framed), the
// body's bytes are never copied, and nothing is allocated per chunk. Node's HTTP client parsed
// the answer before, copying each 64 KiB of body into new memory: forwarding ran at 0.07 of a
// direct download, against 0.6-0.7 through a CONNECT tunnel, which relays bytes as they come.
//
// The framing is read strictly, as a proxy must not pass on an answer whose end it cannot tell:
// two different Content-Lengths, Content-Length beside Transfer-Encoding, a transfer coding other
// than chunked, a folded header line or a malformed status line end the answer with a 502.

/** How the body of the answer ends (RFC 9112 section 6.3). */
type Framing =
  { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

interface Head {
  status: number;
  reason: string;
  /** Name, value pairs as received. */
  headers: [string, string][];
  framing: Framing;
}

/** Headers of one hop or of the proxy, never passed to the client (RFC 9110 section 7.6.1). */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses an answer's head (without its blank line); `method` is the request's. */
export function parseResponseHead(text: string, method: string): Head | string {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: ([^\r\n]*))?$/.exec(lines[0]!);
  if (!status) return `the destination's status line "${lines[0]!.slice(0, 100)}" is not HTTP/1.x`;
  const headers: [string, string][] = [];
  const lengths = new Set<string>();
  let codings: string[] | null = null;
  const named = new Set<string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    // Stryker disable next-line EqualityOperator: a colon first leaves an empty name, which TOKEN refuses too
    if (colon <= 0 || !TOKEN.test(name))
      return `the destination sent a malformed header line "${line.slice(0, 100)}"`;
    const value = line.slice(colon + 1).trim();
    const lower = name.toLowerCase();
    if (lower === 'content-length') lengths.add(value);
    else if (lower === 'transfer-encoding')
      codings = [...(codings ?? []), ...value.split(',').map((c) => c.trim().toLowerCase())];
    else if (lower === 'connection')
      for (const n of value.split(',')) named.add(n.trim().toLowerCase());
    headers.push([name, value]);
  }
  const code = Number(status[1]);
  const kept = headers.filter(
    ([n]) => !HOP_HEADERS.has(n.toLowerCase()) && !named.has(n.toLowerCase()),
  );
  const head = (framing: Framing): Head => ({
    status: code,
    reason: status[2] ?? '',
    headers: kept,
    framing,
  });
  if (codings && lengths.size)
    return 'the destination sent both Transfer-Encoding and Content-Length (its end is ambiguous)';
  if (lengths.size > 1) return 'the destination sent two different Content-Length headers';
  if (method === 'HEAD' || code === 204 || code === 304 || code < 200)
    return head({ kind: 'none' });
  if (codings) {
    if (codings.length !== 1 || codings[0] !== 'chunked')
      return `the destination's transfer coding "${codings.join(', ')}" is not one a proxy can pass on`;
    return head({ kind: 'chunked' });
  }
  const [length] = lengths;
  if (length === undefined) return head({ kind: 'close' });
  if (!/^\d{1,15}$/.test(length))
    return `the destination's Content-Length "${length}" is not a number`;
  // A zero length is no body: the answer ends at its head.
  const left = Number(length);
  return head(left ? { kind: 'length', left } : { kind: 'none' });
}

/** Where a chunked body is: a size line, the data, the CRLF after it, or the trailer. */
type ChunkState =
  | { at: 'size'; line: string }
  | { at: 'data'; left: number }
  | { at: 'crlf'; left: number }
  | { at: 'trailer'; line: string };

/** Longest chunk-size line (hex size and extensions) read before the answer is called malformed. */
const MAX_CHUNK_LINE = 4096;

const EMPTY = Buffer.alloc(0);

export class ForwardedResponse {
  readonly buffer = Buffer.allocUnsafe(RELAY_BUFFER_BYTES);
  /** The destination's socket, once made (its onread is this answer's `read`). */
  from: Socket | null = null;
  /** The answer's head so far, until its blank line. */
  private head = EMPTY;
  private framing: Framing | null = null;
  // Stryker disable next-line StringLiteral: a size line is read in every state but data, crlf and trailer
  private chunk: ChunkState = { at: 'size', line: '' };
  /** Writes to the client not yet done; the buffer is reused only when none is left. */
  private pending = 0;
  // Stryker disable next-line BooleanLiteral: read() sets it before any write's callback runs
  private waiting = false;
  private finished = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly method: string,
    /** A malformed answer: the reason, before or after its head was sent. */
    private readonly fail: (message: string) => void,
  ) {}

  /** onread's callback: false pauses the destination's socket until the client took the bytes. */
  read(n: number, buf: Uint8Array): boolean {
    // Reached only in the moment between the answer's end (or the client's leaving) and the close
    // that destroys the destination's socket: what it reads then is dropped either way.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: the loop below passes nothing on once finished, and the close is already under way
    if (this.finished || this.res.destroyed) return false;
    let at = 0;
    while (at < n && !this.finished) {
      at = this.framing ? this.body(buf, at, n) : this.readHead(buf, at, n);
      // A failure destroys the destination's socket, so what is returned then is never read; a step
      // always passes at least one byte.
      // Stryker disable next-line EqualityOperator,BooleanLiteral: see above
      if (at < 0) return false;
    }
    const socket = this.res.socket;
    // Paused only while the client's socket holds bytes of this buffer. Pausing more often (when
    // a write is pending but the socket took its bytes) only costs time: every pause is resumed by
    // the last write's callback; the socket is the client's until the answer's end.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: pausing more often is only slower (see above)
    this.waiting = this.pending > 0 && socket !== null && socket.writableLength > 0;
    return !this.waiting;
  }

  /** The destination closed its side: the end of a close-delimited body, or an answer cut short. */
  ended(): void {
    if (this.finished) return;
    if (this.framing?.kind === 'close') return this.finish();
    this.fail(
      this.framing
        ? // Stryker disable next-line StringLiteral: the head is out, so the client only sees its connection cut
          'the destination closed the connection before the end of its answer'
        : 'the destination closed the connection without answering',
    );
  }

  private readHead(buf: Uint8Array, from: number, n: number): number {
    // The blank line may straddle two reads: what came before is kept (a head is small) and the
    // search starts three bytes back. Past the limit the head is refused, never kept whole.
    const prior = this.head.length;
    const piece = buf.subarray(from, Math.min(n, from + MAX_HEADER_BYTES + 4 - prior));
    const joined = Buffer.concat([this.head, piece]);
    const end = joined.indexOf('\r\n\r\n', Math.max(0, prior - 3));
    if (end === -1) {
      if (joined.length >= MAX_HEADER_BYTES + 4) {
        this.fail(`the destination's answer head is longer than ${MAX_HEADER_BYTES} bytes`);
        return -1;
      }
      this.head = joined;
      return from + piece.length;
    }
    const taken = end + 4 - prior;
    this.head = EMPTY;
    const text = joined.toString('latin1', 0, end);
    const head = parseResponseHead(text, this.method);
    if (typeof head === 'string') {
      this.fail(head);
      return -1;
    }
    // An interim answer (100 Continue): node's server already told the client to go on.
    if (head.status < 200) return from + taken;
    try {
      this.res.writeHead(head.status, head.reason, head.headers.flat());
    } catch (err) {
      this.fail(`the destination's answer cannot be passed on: ${(err as Error).message}`);
      return -1;
    }
    this.framing = head.framing;
    if (head.framing.kind === 'none') this.finish();
    return from + taken;
  }

  /** Passes on the body bytes in buf[from, n); returns where this answer's bytes stop. */
  private body(buf: Uint8Array, from: number, n: number): number {
    const framing = this.framing!;
    if (framing.kind === 'close') {
      this.write(buf, from, n);
      return n;
    }
    if (framing.kind === 'length') {
      const to = Math.min(n, from + framing.left);
      this.write(buf, from, to);
      framing.left -= to - from;
      if (framing.left === 0) this.finish();
      return to;
    }
    return this.chunked(buf, from, n);
  }

  /** A chunked body: the data of each chunk is written on, the framing read and dropped. */
  private chunked(buf: Uint8Array, from: number, n: number): number {
    let at = from;
    while (at < n && !this.finished) {
      const c = this.chunk;
      if (c.at === 'data') {
        const to = Math.min(n, at + c.left);
        this.write(buf, at, to);
        c.left -= to - at;
        at = to;
        if (c.left === 0) this.chunk = { at: 'crlf', left: 2 };
      } else if (c.at === 'crlf') {
        if (buf[at] !== (c.left === 2 ? 0x0d : 0x0a)) {
          // Stryker disable next-line StringLiteral: the head is out, so the client only sees its connection cut
          this.fail('the destination sent a chunk not followed by CRLF');
          return -1;
        }
        at++;
        // Stryker disable next-line StringLiteral: a size line is read in every state but data, crlf and trailer
        this.chunk = c.left === 2 ? { at: 'crlf', left: 1 } : { at: 'size', line: '' };
      } else {
        const nl = Buffer.from(buf.buffer, buf.byteOffset + at, n - at).indexOf(0x0a);
        const to = nl === -1 ? n : at + nl + 1;
        c.line += Buffer.from(buf.buffer, buf.byteOffset + at, to - at).toString('latin1');
        at = to;
        if (c.line.length > MAX_CHUNK_LINE) {
          // Stryker disable next-line StringLiteral: the head is out, so the client only sees its connection cut
          this.fail('the destination sent a chunk size line too long to be one');
          return -1;
        }
        if (nl === -1) continue;
        if (!c.line.endsWith('\r\n')) {
          // Stryker disable next-line StringLiteral: the head is out, so the client only sees its connection cut
          this.fail('the destination sent a chunk line ending without CR');
          return -1;
        }
        const line = c.line.slice(0, -2);
        if (c.at === 'trailer') {
          if (line === '') this.finish();
          else this.chunk = { at: 'trailer', line: '' };
          continue;
        }
        const size = /^([0-9a-fA-F]{1,12})(?:[ \t]*;.*)?$/.exec(line);
        if (!size) {
          // Stryker disable next-line StringLiteral,MethodExpression: the head is out, so the client only sees its connection cut
          this.fail(`the destination sent a malformed chunk size "${line.slice(0, 40)}"`);
          return -1;
        }
        const left = parseInt(size[1]!, 16);
        this.chunk = left === 0 ? { at: 'trailer', line: '' } : { at: 'data', left };
      }
    }
    return at;
  }

  /**
   * Writes buf[from, to) to the client as it is: no copy unless the client's socket queues it.
   * Never empty: every caller stops at `n` and has bytes left to pass on.
   */
  private write(buf: Uint8Array, from: number, to: number): void {
    this.pending++;
    this.res.write(buf.subarray(from, to), () => {
      this.pending--;
      if (this.pending === 0 && this.waiting) {
        // Stryker disable next-line BooleanLiteral: resuming a flowing socket does nothing, and read() sets it again
        this.waiting = false;
        // Stryker disable next-line OptionalChaining: the proxy sets `from` before the socket's first read
        this.from?.resume();
      }
    });
  }

  private finish(): void {
    this.finished = true;
    this.res.end();
  }
}
