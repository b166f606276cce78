import './zod-jitless';
import { readFile } from 'node:fs/promises';
import { isErrorPayload } from '../../shared/tools/payload';
import { builtinToolLoaders, loadBuiltinTool } from '../host/tools/builtin-tool-loaders';
import type { AnyTool } from '../host/tools/tool';
import { parseToolArgs } from '../host/tools/parse-args';
import { createStandaloneContext } from '../host/tools/standalone-context';
import { parseCliArgs, UsageError, type CliCommand } from './command';
import { rootOption } from './root-option';
import { writeStdout } from './write-stdout';

const usage = `Usage: mewbo tool NAME [--root DIR] [--args JSON | --args @FILE | --args -]

Runs one built-in tool without a model and prints its JSON payload on stdout.
  --root DIR   project root the tool works in (default: the current directory)
  --args JSON  the tool's arguments as a JSON object (default {}); @FILE reads them from a file,
               - from stdin (for large edit payloads)
Exit status: 0 for a success payload, 1 for an error payload, 2 for bad usage.
Tools: ${Object.keys(builtinToolLoaders).join(', ')}`;

async function readArgsText(spec: string): Promise<string> {
  if (spec === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (spec.startsWith('@')) {
    try {
      return await readFile(spec.slice(1), 'utf8');
    } catch (err) {
      throw new UsageError(`--args ${spec}: cannot read: ${(err as Error).message}`);
    }
  }
  return spec;
}

function parseJsonArgs(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--args: not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError('--args: must be a JSON object');
  }
  return value;
}

function parseToolArgv(argv: string[]) {
  return parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: { root: { type: 'string' }, args: { type: 'string' } },
  });
}

/** The tool NAME of `mewbo tool ARGV`; undefined when there is none or ARGV is bad usage. */
export function toolNamed(argv: string[]): string | undefined {
  try {
    return parseToolArgv(argv).positionals[0];
  } catch {
    return undefined;
  }
}

/** `mewbo tool`, its tools loaded by `loadTool` (undefined: no such tool). */
export function toolCommandWith(
  loadTool: (name: string) => Promise<AnyTool | undefined>,
): CliCommand {
  return {
    name: 'tool',
    usage,
    async run(argv) {
      const parsed = parseToolArgv(argv);
      const [name, ...extra] = parsed.positionals;
      if (!name) throw new UsageError('missing tool NAME');
      if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
      const tool = await loadTool(name);
      if (!tool) throw new UsageError(`unknown tool '${name}'`);
      const root = rootOption(parsed.values.root);
      const check = parseToolArgs(
        tool,
        parseJsonArgs(await readArgsText(parsed.values.args ?? '{}')),
      );
      if (!check.ok) throw new UsageError(check.error.message);

      const standalone = await createStandaloneContext({
        root,
        // A read-only tool (read_file, list_dir, lsp_tool) runs no shell and writes no policy file:
        // that code is not loaded for it.
        readOnly: tool.flags.readOnly && !tool.classify,
        onEvent: (event) => process.stderr.write(`event: ${JSON.stringify(event)}\n`),
      });
      try {
        const payload = await tool.run(standalone.ctx, check.args);
        writeStdout(`${JSON.stringify(payload, null, 2)}\n`);
        return isErrorPayload(payload) ? 1 : 0;
      } finally {
        await standalone.dispose();
      }
    },
  };
}

export const toolCommand: CliCommand = toolCommandWith(loadBuiltinTool);
