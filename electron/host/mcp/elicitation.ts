import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  ELICIT_MAX_MESSAGE_CHARS,
  parseRequestedSchema,
  type ElicitContent,
  type ElicitForm,
} from '../../../shared/mcp/elicitation-form';
import type { BrowserOpener } from '../system/browser-opener';
import { openableUrl } from '../system/browser-opener';

// A server's elicitation/create as the app's MCP client answers it (spec 2025-11-25: form and url
// modes). The protocol does not say which tool call a request belongs to, so it goes to the
// session of the newest call in flight on that server (one call at a time is the usual case); with
// no call in flight, or no one to ask (a headless run, `mewbo tool`), it is declined, said on the
// server's log and where the user looks (a headless run's stderr). A form whose schema is not the
// spec's flat one is refused with the reason, logged on the server's row, and never shown.
//
// The SDK's own handler (Client.setRequestHandler) parses the request before the app sees it, so
// a bad schema would be answered with a raw zod dump and reach no log: the connection routes
// elicitation/create here through the client's fallbackRequestHandler instead.

export type ElicitationRequest = {
  server: string;
  callId: string;
  message: string;
  /** An external ACP agent asks, not an MCP server. */
  asker?: 'agent';
} & ({ mode: 'form'; form: ElicitForm } | { mode: 'url'; url: string });

export type ElicitationAnswer =
  { action: 'accept'; content?: ElicitContent } | { action: 'decline' } | { action: 'cancel' };

/** Who asks the user on behalf of one tool call (agent/elicitation-broker.ts for a session). */
export interface ElicitationAsker {
  /** Resolves with the user's answer; `cancel` when `signal` ends the wait first. */
  ask(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
}

/** A tool call in flight on the server, with who may be asked for it. */
export interface ElicitingCall {
  callId: string;
  asker?: ElicitationAsker;
  signal: AbortSignal;
}

export interface ElicitationDeskDeps {
  server: string;
  /** A line on the server's row (its log view in Settings). */
  log(line: string): void;
  /** A line where the user looks when nothing can ask them (a headless run's stderr). */
  notify(line: string): void;
  /** Opens an accepted URL-mode page; null where nothing can open one. */
  browser: BrowserOpener | null;
}

/** The refusal of a bad request: answered to the server as a JSON-RPC error with this code. */
export class ElicitationRefused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON-RPC codes of the refusals (the spec's: invalid params, method not found). */
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

type Read = { message: string } & (
  { mode: 'form'; form: ElicitForm } | { mode: 'url'; url: string }
);

/** The elicitations of one server connection. */
export class ElicitationDesk {
  private readonly calls: ElicitingCall[] = [];

  constructor(private readonly deps: ElicitationDeskDeps) {}

  /** Runs `fn` (a tool call) with `call` as where its server's elicitations are asked. */
  async during<T>(call: ElicitingCall, fn: () => Promise<T>): Promise<T> {
    this.calls.push(call);
    try {
      return await fn();
    } finally {
      this.calls.splice(this.calls.indexOf(call), 1);
    }
  }

  /** The client's fallback request handler: elicitation/create, and nothing else. */
  async handle(request: JSONRPCRequest, serverSignal: AbortSignal): Promise<ElicitationAnswer> {
    if (request.method !== 'elicitation/create')
      throw new ElicitationRefused(METHOD_NOT_FOUND, `Method not found: ${request.method}`);
    const read = this.read(request.params);
    const server = this.deps.server;
    const call = this.calls.at(-1);
    if (!call?.asker) {
      const why = call
        ? 'no one can answer here (a run without a window to ask in)'
        : 'it came outside any tool call, with no session to ask';
      this.deps.log(`elicitation declined: ${why}`);
      this.deps.notify(`MCP server '${server}' asked: “${read.message}”; declined: ${why}`);
      return { action: 'decline' };
    }
    const ended = endedBy(serverSignal, call.signal);
    let answer: ElicitationAnswer;
    try {
      answer = await call.asker.ask(
        read.mode === 'form'
          ? { server, callId: call.callId, message: read.message, mode: 'form', form: read.form }
          : { server, callId: call.callId, message: read.message, mode: 'url', url: read.url },
        ended.signal,
      );
    } finally {
      ended.dispose();
    }
    if (read.mode === 'url' && answer.action === 'accept') await this.open(read.url);
    return answer;
  }

  /** A URL-mode page the server says is done with (notifications/elicitation/complete). */
  completed(elicitationId: string): void {
    this.deps.log(`elicitation ${elicitationId} completed`);
  }

  private async open(url: string): Promise<void> {
    const browser = this.deps.browser;
    if (!browser) {
      this.deps.log(`elicitation page not opened: nothing can open a browser here (${url})`);
      return;
    }
    await browser.open(url).catch((err: unknown) => {
      this.deps.log(`elicitation page not opened: ${(err as Error).message}`);
    });
  }

  /** The request's params, checked; a refusal is logged on the server's row and thrown. */
  private read(params: unknown): Read {
    const problem = (why: string): never => {
      this.deps.log(`elicitation refused: ${why}`);
      throw new ElicitationRefused(INVALID_PARAMS, `elicitation refused by the client: ${why}`);
    };
    const p = (params ?? {}) as Record<string, unknown>;
    const message = p.message;
    if (typeof message !== 'string' || !message.trim()) return problem('"message" must be text');
    if (message.length > ELICIT_MAX_MESSAGE_CHARS)
      return problem(`"message" is longer than ${ELICIT_MAX_MESSAGE_CHARS} characters`);
    const mode = p.mode ?? 'form';
    if (mode === 'url') {
      const url = p.url;
      const id = p.elicitationId;
      if (typeof id !== 'string' || !id) return problem('url mode needs an "elicitationId"');
      if (typeof url !== 'string' || !URL.canParse(url)) return problem('"url" is not a URL');
      if (!openableUrl(url))
        return problem(`"url" must be an https page (or http on this machine): ${url}`);
      return { message, mode: 'url', url };
    }
    if (mode !== 'form') return problem(`mode ${JSON.stringify(mode)} is neither form nor url`);
    const parsed = parseRequestedSchema(p.requestedSchema);
    if (!parsed.ok) return problem(parsed.error);
    return { message, mode: 'form', form: parsed.form };
  }
}

/**
 * One signal for the wait on the user, whose reason says why it ended: the server withdrew its
 * request (notifications/cancelled), or the call was stopped (Stop: the run's reason).
 */
function endedBy(server: AbortSignal, call: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const ended = new AbortController();
  const withdrawn = () => ended.abort(new Error('the server withdrew its request'));
  const stopped = () =>
    ended.abort(
      new Error(call.reason instanceof Error ? call.reason.message : 'the call was stopped'),
    );
  if (call.aborted) stopped();
  else if (server.aborted) withdrawn();
  server.addEventListener('abort', withdrawn, { once: true });
  call.addEventListener('abort', stopped, { once: true });
  return {
    signal: ended.signal,
    dispose: () => {
      server.removeEventListener('abort', withdrawn);
      call.removeEventListener('abort', stopped);
    },
  };
}
