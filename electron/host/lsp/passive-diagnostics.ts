import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import type { AppConfig } from '../config/schema';
import type { ErrorPayload } from '../../../shared/tools/payload';
import { isRefusal } from './errors';
import { PASSIVE_MAX_CHARS, PASSIVE_MAX_PER_FILE } from './constants';
import { byImportance, codeLabel, messageText, severityName } from './diagnostic-format';
import { diagnosticsFor } from './file-diagnostics';
import { displayPath } from './locations';
import type { Target } from './lsp-service';

// The note appended to the model's context after an edit (see LspService.diagnosticsAfterEdit for
// the contract). Quiet by design: anything that keeps a fresh answer from arriving in time (no
// server, not installed, a cold start, a slow check) yields no line rather than a guess.

const MESSAGE_CHARS = 300;

/** The note, and how many errors and warnings it stands for (all of them, listed or not). */
export interface PassiveNote {
  text: string;
  errors: number;
  warnings: number;
}

interface Section {
  text: string;
  errors: number;
  warnings: number;
}

type TargetFn = (root: string, file: string, signal: AbortSignal) => Promise<Target | ErrorPayload>;

export class PassiveDiagnostics {
  /** Problems last shown to the model per file (here or by lsp_tool), so a fix that clears them is said once. */
  private readonly reported = new Map<string, number>();

  constructor(
    private readonly config: () => AppConfig,
    private readonly target: TargetFn,
  ) {}

  /** Records what the model was shown for `file` (an absolute, real path). */
  remember(file: string, problems: number): void {
    this.reported.set(file, problems);
  }

  async afterEdit(root: string, files: string[], waitMs: number): Promise<PassiveNote | null> {
    if (!this.config().agent.lsp.enabled || files.length === 0) return null;
    const deadline = Date.now() + waitMs;
    const signal = AbortSignal.timeout(waitMs);
    const sections: Section[] = [];
    for (const file of new Set(files)) {
      const section = await this.section(root, file, deadline, signal).catch(() => null);
      if (section) sections.push(section);
    }
    if (!sections.length) return null;
    const text = `Diagnostics after the edit (line:column from 1):\n${sections.map((s) => s.text).join('\n')}`;
    return {
      text:
        text.length > PASSIVE_MAX_CHARS
          ? `${text.slice(0, PASSIVE_MAX_CHARS - 14)}\n…(truncated)`
          : text,
      errors: sections.reduce((n, s) => n + s.errors, 0),
      warnings: sections.reduce((n, s) => n + s.warnings, 0),
    };
  }

  private async section(
    root: string,
    file: string,
    deadline: number,
    signal: AbortSignal,
  ): Promise<Section | null> {
    const t = await this.target(root, file, signal);
    if (isRefusal(t)) return null;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return null;
    const { problems, fresh } = await diagnosticsFor(t.client, t.doc, remaining, signal);
    if (!fresh) return null;
    const name = displayPath(t.file, t.root);
    const before = this.reported.get(t.file) ?? 0;
    this.reported.set(t.file, problems.length);
    if (!problems.length)
      return before > 0
        ? { text: `${name}: no errors or warnings now`, errors: 0, warnings: 0 }
        : null;
    const shown = [...problems].sort(byImportance).slice(0, PASSIVE_MAX_PER_FILE);
    const lines = shown.map(formatLine);
    if (problems.length > shown.length) lines.push(`  …and ${problems.length - shown.length} more`);
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    const errors = problems.filter((d) => severityName(d) === 'error').length;
    return {
      text: `${name}: ${count}\n${lines.join('\n')}`,
      errors,
      warnings: problems.length - errors,
    };
  }
}

function formatLine(d: Diagnostic): string {
  const code = codeLabel(d);
  const flat = messageText(d).replace(/\s*\n\s*/g, ' ');
  const message = flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS)}…` : flat;
  const where = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
  return `  ${where} ${severityName(d)}${code ? ` ${code}` : ''}: ${message}`;
}
