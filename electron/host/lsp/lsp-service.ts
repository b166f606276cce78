import {
  DefinitionRequest,
  HoverRequest,
  ReferencesRequest,
  type Definition,
  type Hover,
  type Location,
  type LocationLink,
} from 'vscode-languageserver-protocol/node';
import type { AppConfig } from '../config/schema';
import { DisposableObject } from '../lifecycle/disposable';
import { errorPayload, type ErrorPayload, type ToolPayload } from '../../../shared/tools/payload';
import {
  DIAGNOSTICS_WAIT_MS,
  MAX_DIAGNOSTICS,
  MAX_LOCATIONS,
  PASSIVE_WAIT_MS,
  REQUEST_TIMEOUT_MS,
} from './constants';
import { byImportance, placeDiagnostic } from './diagnostic-format';
import type { SyncedDocument } from './document-sync';
import { abortable, isRefusal, isServerGone, LspError } from './errors';
import { checkPosition } from './position-check';
import { diagnosticsFor } from './file-diagnostics';
import { hoverText } from './hover-text';
import { displayPath, flattenLocations, LineReader, placeLocations } from './locations';
import type { LspClient } from './lsp-client';
import { PassiveDiagnostics, type PassiveNote } from './passive-diagnostics';
import { resolveProjectFile } from './resolve-file';
import { appBinDirs } from './resolve-command';
import { ServerRegistry, type RunningServer, type ServerSandbox } from './server-registry';

export interface LspServiceOptions {
  /** Read at each use, so a config reload (LSP off, a server disabled) applies at once. */
  config: () => AppConfig;
  /** Searched after PATH; default: this app's node_modules/.bin. */
  binDirs?: string[];
  env?: NodeJS.ProcessEnv;
  /** Required for `agent.server_sandbox`; without it a sandboxed config starts no server. */
  sandbox?: ServerSandbox;
  /** Workspace trust; without it no project is trusted (nothing under a project is executed). */
  isTrusted?: (projectRoot: string) => boolean;
  /** Overrides of the waits in constants.ts (tests on a loaded machine). */
  waits?: { diagnosticsMs?: number; passiveMs?: number; requestMs?: number };
}

export interface Position {
  line: number;
  character: number;
}

/** What every operation needs: the client, the synced document, the resolved file and root. */
export interface Target {
  client: LspClient;
  doc: SyncedDocument;
  file: string;
  root: string;
  server: string;
}

/**
 * The host's language-server client: one server per language and workspace root, started on first
 * use, restarted after a crash (bounded), shut down with the owner (a session or project). Every
 * method answers with a kind-tagged payload; nothing here throws for a missing server or bad input.
 */
export class LspService extends DisposableObject {
  private readonly registry: ServerRegistry;
  private readonly passive: PassiveDiagnostics;
  private readonly waits: Required<NonNullable<LspServiceOptions['waits']>>;

  constructor(opts: LspServiceOptions) {
    super();
    this.registry = this.register(
      new ServerRegistry({
        config: opts.config,
        binDirs: opts.binDirs ?? appBinDirs(),
        env: opts.env ?? process.env,
        sandbox: opts.sandbox,
        isTrusted: opts.isTrusted,
      }),
    );
    this.waits = {
      diagnosticsMs: opts.waits?.diagnosticsMs ?? DIAGNOSTICS_WAIT_MS,
      passiveMs: opts.waits?.passiveMs ?? PASSIVE_WAIT_MS,
      requestMs: opts.waits?.requestMs ?? REQUEST_TIMEOUT_MS,
    };
    this.passive = new PassiveDiagnostics(opts.config, (root, file, signal) =>
      this.target(root, file, signal),
    );
  }

  async diagnostics(
    projectRoot: string,
    filePath: string,
    signal?: AbortSignal,
  ): Promise<ToolPayload> {
    return this.run(projectRoot, filePath, undefined, signal, async (t) => {
      const { problems, fresh } = await diagnosticsFor(
        t.client,
        t.doc,
        this.waits.diagnosticsMs,
        signal,
      );
      const reader = new LineReader((f) => (f === t.file ? t.doc.text : undefined));
      if (fresh) this.passive.remember(t.file, problems.length);
      const shown = [...problems].sort(byImportance).slice(0, MAX_DIAGNOSTICS);
      return {
        kind: 'lsp_diagnostics',
        file: displayPath(t.file, t.root),
        server: t.server,
        diagnostics: await Promise.all(shown.map((d) => placeDiagnostic(d, t.file, reader))),
        total: problems.length,
        truncated: problems.length > shown.length,
        ...(fresh
          ? {}
          : {
              note: `${t.server} had not finished checking this version; these results may be older`,
            }),
      };
    });
  }

  definition(
    projectRoot: string,
    filePath: string,
    pos: Position,
    signal?: AbortSignal,
  ): Promise<ToolPayload> {
    return this.locations(
      'definition',
      DefinitionRequest.method,
      projectRoot,
      filePath,
      pos,
      {},
      signal,
    );
  }

  references(
    projectRoot: string,
    filePath: string,
    pos: Position,
    signal?: AbortSignal,
  ): Promise<ToolPayload> {
    const context = { context: { includeDeclaration: true } };
    return this.locations(
      'references',
      ReferencesRequest.method,
      projectRoot,
      filePath,
      pos,
      context,
      signal,
    );
  }

  async hover(
    projectRoot: string,
    filePath: string,
    pos: Position,
    signal?: AbortSignal,
  ): Promise<ToolPayload> {
    return this.run(projectRoot, filePath, pos, signal, async (t) => {
      const result = await t.client.request<Hover | null>(
        HoverRequest.method,
        { textDocument: { uri: t.doc.uri }, position: pos },
        this.waits.requestMs,
        signal,
      );
      const { text, truncated } = hoverText(result);
      return {
        kind: 'lsp_hover',
        file: displayPath(t.file, t.root),
        line: pos.line,
        character: pos.character,
        server: t.server,
        text,
        ...(truncated ? { truncated } : {}),
        ...(text ? {} : { note: 'the server has no hover information at this position' }),
      };
    });
  }

  /**
   * Passive diagnostics, for the agent loop to call after each successful edit.
   *
   * Contract: `files` are the edited files (absolute, or relative to `root`); resolves within
   * about `waits.passiveMs` (default 4 s), never rejects. It resolves with a short plain-text note
   * (at most 4,000 characters, 20 problems per file, severity warning or worse, lines 1-based) to
   * append to what the model sees next and to show on the edit's card, with how many errors and
   * warnings it stands for (the card's count); or null when there is
   * nothing to say: LSP off, no server for these files or not installed, the server too slow this
   * time, or no problems (a file whose earlier note listed problems gets "no errors or warnings
   * now"). Files are synced from disk first, so the note reflects the edit.
   */
  diagnosticsAfterEdit(root: string, files: string[]): Promise<PassiveNote | null> {
    return this.passive.afterEdit(root, files, this.waits.passiveMs);
  }

  /**
   * Starts the server for this file's language and opens the file, in the background, so the
   * first passive diagnostics after an edit find the server warm (call it when the model reads a
   * file it may edit). Never rejects; does nothing when LSP is off or no server applies.
   */
  warm(root: string, filePath: string): void {
    void this.target(root, filePath).catch(() => undefined);
  }

  /** Servers started so far and their current pids (undefined while down). */
  runningServers(): RunningServer[] {
    return this.registry.running();
  }

  private async locations(
    operation: 'definition' | 'references',
    method: string,
    projectRoot: string,
    filePath: string,
    pos: Position,
    extra: object,
    signal: AbortSignal | undefined,
  ): Promise<ToolPayload> {
    return this.run(projectRoot, filePath, pos, signal, async (t) => {
      const result = await t.client.request<Definition | LocationLink[] | Location[] | null>(
        method,
        { textDocument: { uri: t.doc.uri }, position: pos, ...extra },
        this.waits.requestMs,
        signal,
      );
      const all = flattenLocations(result);
      const reader = new LineReader((f) => (f === t.file ? t.doc.text : undefined));
      const placed = await placeLocations(all.slice(0, MAX_LOCATIONS), t.root, reader);
      return {
        kind: 'lsp_locations',
        operation,
        file: displayPath(t.file, t.root),
        line: pos.line,
        character: pos.character,
        server: t.server,
        locations: placed,
        total: all.length,
        truncated: all.length > MAX_LOCATIONS,
        ...(placed.length ? {} : { note: `the server found no ${operation} at this position` }),
      };
    });
  }

  /** Resolves, starts and syncs, then runs `fn`; one retry on a restarted server if it died. */
  private async run(
    projectRoot: string,
    filePath: string,
    pos: Position | undefined,
    signal: AbortSignal | undefined,
    fn: (t: Target) => Promise<ToolPayload>,
  ): Promise<ToolPayload> {
    for (let attempt = 0; ; attempt++) {
      try {
        const target = await this.target(projectRoot, filePath, signal);
        if (isRefusal(target)) return target;
        const bad = pos && checkPosition(target.doc.text, pos, filePath);
        return bad || (await fn(target));
      } catch (err) {
        if (attempt === 0 && isServerGone(err)) continue;
        if (err instanceof LspError) return errorPayload(err.code, err.message);
        const code = (err as NodeJS.ErrnoException).code;
        // The file went away (or became a directory) between the path check and the read.
        if (code === 'ENOENT' || code === 'EISDIR')
          return errorPayload('not_found', `${filePath} is no longer a readable file`);
        throw err;
      }
    }
  }

  private async target(
    projectRoot: string,
    filePath: string,
    signal?: AbortSignal,
  ): Promise<Target | ErrorPayload> {
    const resolved = await resolveProjectFile(projectRoot, filePath);
    if (isRefusal(resolved)) return resolved;
    const server = await this.registry.serverFor(resolved.root, resolved.file);
    if (isRefusal(server)) return server;
    const client = await abortable(server.get(), signal);
    await client.flushWatchedFiles();
    await client.documents.refreshOpen();
    const doc = await client.documents.sync(resolved.file);
    return { client, doc, file: resolved.file, root: resolved.root, server: server.name };
  }
}
