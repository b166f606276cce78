import {
  DiagnosticSeverity,
  DocumentDiagnosticRequest,
  type Diagnostic,
  type DocumentDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import type { SyncedDocument } from './document-sync';
import { LspError } from './errors';
import type { LspClient } from './lsp-client';
import { pullTsserverDiagnostics, supportsTsserverPull } from './tsserver-diagnostics';

export interface FileDiagnostics {
  /** Severity warning or worse (the seed's filter), in the server's order. */
  problems: Diagnostic[];
  /** False when the server had not published for this version by the deadline (older results). */
  fresh: boolean;
}

/** LSP leaves a missing severity to the client; treat it as an error rather than hide it. */
export function isProblem(d: Diagnostic): boolean {
  return (d.severity ?? DiagnosticSeverity.Error) <= DiagnosticSeverity.Warning;
}

/** Timeouts, cancels and a dead server are answers; a refused or failed pull falls back to push. */
function isFallback(err: unknown): boolean {
  return !(err instanceof LspError) || err.code === 'request_failed';
}

/**
 * The diagnostics of one just-synced document, as of that sync: pulled where the server can
 * answer directly (tsserver's own request, or LSP 3.17 textDocument/diagnostic), otherwise the
 * publish for this version, waited for up to `timeoutMs`.
 */
export async function diagnosticsFor(
  client: LspClient,
  doc: SyncedDocument,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FileDiagnostics> {
  if (supportsTsserverPull(client)) {
    try {
      const all = await pullTsserverDiagnostics(client, doc.uri, timeoutMs, signal);
      return { problems: all.filter(isProblem), fresh: true };
    } catch (err) {
      if (!isFallback(err)) throw err;
    }
  } else if (client.pullDiagnostics) {
    try {
      const report = await client.request<DocumentDiagnosticReport | null>(
        DocumentDiagnosticRequest.method,
        { textDocument: { uri: doc.uri } },
        timeoutMs,
        signal,
      );
      // Without a previousResultId the answer is always a full report.
      if (report?.kind === 'full') return { problems: report.items.filter(isProblem), fresh: true };
    } catch (err) {
      if (!isFallback(err)) throw err;
    }
    client.pullDiagnostics = false;
  }
  const fresh = await client.store.waitFresh(doc.uri, doc.mark, timeoutMs, signal);
  if (client.hasExited)
    throw new LspError('server_exited', `${client.name} exited before publishing diagnostics`);
  const diagnostics = fresh ?? client.store.latest(doc.uri) ?? [];
  return { problems: diagnostics.filter(isProblem), fresh: fresh !== null };
}
