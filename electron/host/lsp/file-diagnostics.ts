import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol/node';
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

/**
 * The diagnostics of one just-synced document, as of that sync: pulled where the server can
 * answer directly, otherwise the publish for this version (waited for up to `timeoutMs`).
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
      // Timeouts, cancels and a dead server are answers; a refused command falls back to push.
      if (err instanceof LspError && err.code !== 'request_failed') throw err;
    }
  }
  const fresh = await client.store.waitFresh(doc.uri, doc.mark, timeoutMs, signal);
  if (client.hasExited)
    throw new LspError('server_exited', `${client.name} exited before publishing diagnostics`);
  const diagnostics = fresh ?? client.store.latest(doc.uri) ?? [];
  return { problems: diagnostics.filter(isProblem), fresh: fresh !== null };
}
