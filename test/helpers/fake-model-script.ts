/* eslint-disable @typescript-eslint/no-explicit-any -- a fake server reads whatever JSON a client sends */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The script both fake provider servers play: each model request takes the next step. A step is a
// reply (text and/or tool calls), an HTTP error, a dropped connection, or a function of the request
// (to answer from what the loop sent). An exhausted script answers a plain "done" so a test that
// miscounts fails on its assertions instead of hanging.

export interface ScriptedToolCall {
  name: string;
  args: unknown;
  id?: string;
}

export interface ScriptedReply {
  text?: string;
  thinking?: string;
  /** Anthropic: a redacted_thinking block carrying this opaque data. */
  redactedThinking?: string;
  toolCalls?: ScriptedToolCall[];
  /** The provider's own stop reason, when not the one implied (pause_turn, refusal, max_tokens). */
  stopReason?: string;
  /** Fixed usage; absent, a fake that models caching computes it from the request. */
  usage?: { input: number; output: number };
  /** Ends the stream early without the protocol's end marker (a broken stream). */
  truncate?: boolean;
  /** Streams the text, then holds the stream open until the server closes (a stop mid-answer). */
  hang?: boolean;
  /**
   * Anthropic: a model's pace. The text goes out in deltas of `chars` characters, one every
   * `everyMs`, and the stream stays open `holdMs` after the last delta before it ends.
   */
  pace?: { chars: number; everyMs: number; holdMs?: number };
}

export interface ScriptedError {
  error: { status: number; message: string; type?: string; headers?: Record<string, string> };
}

export interface ScriptedDisconnect {
  disconnect: true;
}

/** The normalized view of one request a fake received. */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** The request's messages flattened to text, for assertions ("the model saw X"). */
  transcript: string;
  /** Tool names offered. */
  tools: string[];
  system: string;
}

export type ScriptStep =
  | ScriptedReply
  | ScriptedError
  | ScriptedDisconnect
  | ((req: RecordedRequest) => ScriptedReply | ScriptedError | ScriptedDisconnect);

export class ModelScript {
  private readonly steps: ScriptStep[] = [];
  readonly requests: RecordedRequest[] = [];
  exhausted = 0;

  push(...steps: ScriptStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  get remaining(): number {
    return this.steps.length;
  }

  next(req: RecordedRequest): ScriptedReply | ScriptedError | ScriptedDisconnect {
    this.requests.push(req);
    const step = this.steps.shift();
    if (!step) {
      this.exhausted += 1;
      return { text: 'done' };
    }
    return typeof step === 'function' ? step(req) : step;
  }

  /** Waits until `n` requests have arrived (bounded). */
  async waitForRequests(n: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < n) {
      if (Date.now() > deadline)
        throw new Error(`expected ${n} model requests, got ${this.requests.length}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Splits a string into up to `n` pieces, so streams exercise the clients' accumulation. */
export function pieces(s: string, n = 3): string[] {
  if (s.length <= 1) return [s];
  const size = Math.ceil(s.length / n);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** An HTTP server on a free loopback port; `handler` is read per request, so it may be set after. */
export async function listenLocal(
  handler: () => (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => void handler()(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
