import type { z } from 'zod';
import '../../../shared/zod-english';
import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import type { AnyTool } from './tool';

// Validates a tool call's raw arguments against the tool's zod schema, with a message that names
// each bad field so a model (or a person at the CLI) can fix the call.

export type ParsedArgs = { ok: true; args: unknown } | { ok: false; error: ErrorPayload };

export function describeArgIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.join('.');
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export function parseToolArgs(tool: AnyTool, raw: unknown): ParsedArgs {
  const parsed = tool.parameters.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    error: errorPayload(
      'invalid_args',
      `Invalid arguments for ${tool.name}: ${describeArgIssues(parsed.error)}`,
      {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      },
    ),
  };
}
