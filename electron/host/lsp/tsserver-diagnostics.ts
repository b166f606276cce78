import {
  DiagnosticSeverity,
  ExecuteCommandRequest,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import type { LspClient } from './lsp-client';

// typescript-language-server pushes diagnostics without a version, debounced per kind, and skips
// the push when a clean file stays clean: a client waiting for "the publish after my edit" would
// wait out its whole timeout on every clean edit. The server's `typescript.tsserverRequest` command
// asks tsserver for a file's diagnostics directly (after the pending didChange), so for this
// server diagnostics are pulled, exact and immediate.

const COMMAND = 'typescript.tsserverRequest';

interface TsPosition {
  line: number;
  offset: number;
}
interface TsDiagnostic {
  start: TsPosition;
  end: TsPosition;
  text: string;
  code?: number;
  category: string;
  source?: string;
}
interface TsResponse {
  success?: boolean;
  body?: TsDiagnostic[];
  message?: string;
}

const SEVERITY: Record<string, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  suggestion: DiagnosticSeverity.Hint,
  message: DiagnosticSeverity.Information,
};

export function supportsTsserverPull(client: LspClient): boolean {
  return client.serverCapabilities.executeCommandProvider?.commands.includes(COMMAND) ?? false;
}

function toLsp(d: TsDiagnostic): Diagnostic {
  return {
    // tsserver counts lines and columns from 1; LSP from 0 (both in UTF-16 units).
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity: SEVERITY[d.category] ?? DiagnosticSeverity.Error,
    message: d.text,
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: d.source ?? 'typescript',
  };
}

/** Syntactic then semantic diagnostics of one open file; rejects with an LspError. */
export async function pullTsserverDiagnostics(
  client: LspClient,
  uri: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const request of ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync']) {
    const response = await client.request<TsResponse | null>(
      ExecuteCommandRequest.method,
      { command: COMMAND, arguments: [request, { file: uri }] },
      timeoutMs,
      signal,
    );
    if (!response?.success || !Array.isArray(response.body)) {
      throw new Error(`tsserver ${request} failed: ${response?.message ?? 'no body'}`);
    }
    out.push(...response.body.map(toLsp));
  }
  return out;
}
