import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { defineTool } from './tool';

// lsp_tool: the seed's "query language servers". Read-only; the servers are the session's
// LspService (started lazily, one per language and workspace root).

const parameters = z.strictObject({
  operation: z
    .enum(['diagnostics', 'definition', 'references', 'hover'])
    .describe(
      'diagnostics: errors and warnings of file_path; definition/references/hover: the symbol at line/character',
    ),
  file_path: z
    .string()
    .min(1)
    .describe('File to query, relative to the project root (or absolute inside it)'),
  line: z.number().int().min(0).optional().describe('0-based line (definition, references, hover)'),
  character: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('0-based character within the line (definition, references, hover)'),
});

export const lspTool = defineTool({
  name: 'lsp_tool',
  description:
    'Query the language server for a file (pyright for Python, typescript-language-server for ' +
    'TypeScript/JavaScript, gopls for Go, rust-analyzer for Rust). Operations: `diagnostics` ' +
    '(errors and warnings of file_path, at most 50), `definition`, `references` (declaration ' +
    'included) and `hover` (type and docs) for the symbol at `line`/`character`, both counted ' +
    'from 0. Results give paths relative to the project root, 0-based positions and the source line. ' +
    'Files are read from disk at each call, so edits just made are reflected.',
  parameters,
  flags: { readOnly: true, approval: 'none' },
  async run(ctx, args): Promise<ToolPayload> {
    const lsp = ctx.services.lsp;
    if (!lsp) return errorPayload('unavailable', 'language servers are not available in this host');
    if (!ctx.config.agent.lsp.enabled) {
      return errorPayload('lsp_disabled', 'language servers are off (agent.lsp.enabled is false)');
    }
    if (args.operation === 'diagnostics')
      return lsp.diagnostics(ctx.root, args.file_path, ctx.signal);
    const missing = (['line', 'character'] as const).filter((k) => args[k] === undefined);
    if (missing.length) {
      return errorPayload(
        'invalid_args',
        `${args.operation} needs ${missing.join(' and ')} (0-based)`,
      );
    }
    const pos = { line: args.line!, character: args.character! };
    if (args.operation === 'definition')
      return lsp.definition(ctx.root, args.file_path, pos, ctx.signal);
    if (args.operation === 'references')
      return lsp.references(ctx.root, args.file_path, pos, ctx.signal);
    return lsp.hover(ctx.root, args.file_path, pos, ctx.signal);
  },
});
