import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { mcpServerConfigSchema, type McpServerConfig } from '../config/schema';
import { describeIssues } from '../config/load-config';

// A project's `.mcp.json`, in Claude Code's format: {"mcpServers": {"name": {command, args, env} |
// {type: "http", url, headers}}}. `${VAR}` and `${VAR:-default}` in strings expand from the
// environment as Claude Code does, so a checked-in file need not hold secrets.

export const PROJECT_MCP_FILE = '.mcp.json';

const fileSchema = z.object({ mcpServers: z.record(z.string().min(1), z.unknown()).default({}) });

export interface ProjectMcpConfig {
  servers: Record<string, McpServerConfig>;
  /** Per server (or '' for the whole file): why it was not taken. */
  errors: Record<string, string>;
}

export async function readProjectMcpConfig(
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<ProjectMcpConfig> {
  const file = join(root, PROJECT_MCP_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { servers: {}, errors: {} };
    return { servers: {}, errors: { '': `${file}: ${(err as Error).message}` } };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { servers: {}, errors: { '': `${file}: not valid JSON: ${(err as Error).message}` } };
  }
  const top = fileSchema.safeParse(json);
  if (!top.success) return { servers: {}, errors: { '': describeIssues(file, top.error) } };
  const servers: Record<string, McpServerConfig> = {};
  const errors: Record<string, string> = {};
  for (const [name, raw] of Object.entries(top.data.mcpServers)) {
    const parsed = mcpServerConfigSchema.safeParse(expandEnv(raw, env));
    if (parsed.success) servers[name] = parsed.data;
    else errors[name] = describeIssues(`${file}: mcpServers.${name}`, parsed.error);
  }
  return { servers, errors };
}

export function expandEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string')
    return value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
      (_, name: string, def?: string) => env[name] ?? def ?? '',
    );
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env)]));
  return value;
}
