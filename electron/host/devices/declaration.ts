import { z } from 'zod';
import { declaredToolSchema, type DeclaredTool } from '../../../shared/device/frames';
import {
  MAX_PARAMETERS_SCHEMA_CHARS,
  MAX_PARAMETERS_SCHEMA_DEPTH,
} from '../../../shared/device/limits';

// The declaration rules (DESIGN): tool_id `device_` + 1-48 of [a-z0-9_], a non-empty description,
// parameters a JSON Schema object; one bad entry or a duplicate rejects the whole declaration,
// with a reason that names the entry.

export interface AcceptedTool extends DeclaredTool {
  /** The parameters as zod, for the tool contract (the model is shown its JSON Schema). */
  schema: z.ZodType;
}

export type DeclarationCheck = { ok: true; tools: AcceptedTool[] } | { ok: false; reason: string };

export function checkDeclaration(entries: readonly unknown[]): DeclarationCheck {
  const tools: AcceptedTool[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of entries.entries()) {
    const parsed = declaredToolSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `.${issue.path.join('.')}` : '';
      return { ok: false, reason: `tools[${i}]${where}: ${issue?.message ?? 'invalid'}` };
    }
    const tool = parsed.data;
    if (seen.has(tool.tool_id)) {
      return { ok: false, reason: `tools[${i}].tool_id: "${tool.tool_id}" is declared twice` };
    }
    seen.add(tool.tool_id);
    const schema = toZod(tool.parameters);
    if (typeof schema === 'string')
      return { ok: false, reason: `tools[${i}].parameters: ${schema}` };
    tools.push({ ...tool, schema });
  }
  return { ok: true, tools };
}

/** The zod form of a parameters schema, or why it is not a usable JSON Schema object. */
function toZod(parameters: Record<string, unknown>): z.ZodType | string {
  if (tooDeep(parameters)) {
    return `nested deeper than ${MAX_PARAMETERS_SCHEMA_DEPTH} levels`;
  }
  if (JSON.stringify(parameters).length > MAX_PARAMETERS_SCHEMA_CHARS) {
    return `larger than ${MAX_PARAMETERS_SCHEMA_CHARS} characters`;
  }
  if (parameters.type !== 'object') return 'must be a JSON Schema with "type": "object"';
  try {
    const schema = z.fromJSONSchema(parameters as z.core.JSONSchema.JSONSchema);
    // The binder exports it back for the model; a schema that cannot make the trip is unusable.
    z.toJSONSchema(schema);
    return schema;
  } catch (err) {
    return `not a usable JSON Schema (${(err as Error).message})`;
  }
}

/** Nesting depth, never descending past the limit (a hostile frame may nest 100,000 levels). */
function tooDeep(value: unknown, level = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (level >= MAX_PARAMETERS_SCHEMA_DEPTH) return true;
  return Object.values(value).some((child) => tooDeep(child, level + 1));
}
