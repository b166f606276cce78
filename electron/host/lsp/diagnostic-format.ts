import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol/node';
import type { LineReader } from './locations';

// One diagnostic as the payload carries it (0-based, like the tool's parameters) and as the
// passive note prints it (1-based line:column, like a compiler).

export interface PlacedDiagnostic {
  line: number;
  character: number;
  end_line: number;
  end_character: number;
  severity: 'error' | 'warning';
  message: string;
  code?: string;
  source?: string;
  excerpt: string;
}

export function severityName(d: Diagnostic): 'error' | 'warning' {
  return d.severity === DiagnosticSeverity.Warning ? 'warning' : 'error';
}

/** LSP 3.18 allows markup in a message; the model reads its text either way. */
export function messageText(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : d.message.value;
}

export function codeLabel(d: Diagnostic): string | undefined {
  if (d.code === undefined || d.code === '') return undefined;
  // tsc prints its codes as TS2322; users search for that form.
  return d.source === 'typescript' && typeof d.code === 'number' ? `TS${d.code}` : String(d.code);
}

export async function placeDiagnostic(
  d: Diagnostic,
  file: string,
  reader: LineReader,
): Promise<PlacedDiagnostic> {
  const code = codeLabel(d);
  return {
    line: d.range.start.line,
    character: d.range.start.character,
    end_line: d.range.end.line,
    end_character: d.range.end.character,
    severity: severityName(d),
    message: messageText(d),
    ...(code ? { code } : {}),
    ...(d.source ? { source: d.source } : {}),
    excerpt: await reader.excerpt(file, d.range.start.line),
  };
}

/** Errors before warnings, then by position: the first lines of a capped list matter most. */
export function byImportance(a: Diagnostic, b: Diagnostic): number {
  const sev = (a.severity ?? 1) - (b.severity ?? 1);
  if (sev) return sev;
  return (
    a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
  );
}
