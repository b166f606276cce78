import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { configSchemas, type McpServerConfig } from '../config/schema';
import { describeIssues } from '../config/load-config';
import type { TrustItem } from '../../../shared/protocol/commands/trust';

// A project's `.mcp.json`, in Claude Code's format: {"mcpServers": {"name": {command, args, env} |
// {type: "http", url, headers}}}. Unlike Claude Code, `${VAR}` stays literal, trusted project or
// not: a cloned file that says `"env": {"X": "${AWS_SECRET_ACCESS_KEY}"}` would otherwise hand the
// host's secrets to a server of the repository's choosing. Only the user's own config may name
// values; a server that needs one gets it there (configs/app.json mcpServers).

export const PROJECT_MCP_FILE = '.mcp.json';

const fileSchema = z.object({ mcpServers: z.record(z.string().min(1), z.unknown()).default({}) });

export interface ProjectMcpConfig {
  servers: Record<string, McpServerConfig>;
  /** The file's text as read (absent: no file), for workspace trust's check of its content. */
  text?: string;
  /** Per server (or '' for the whole file): why it was not taken. */
  errors: Record<string, string>;
}

export async function readProjectMcpConfig(root: string): Promise<ProjectMcpConfig> {
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
    return {
      servers: {},
      errors: { '': `${file}: not valid JSON: ${(err as Error).message}` },
      text,
    };
  }
  const top = fileSchema.safeParse(json);
  if (!top.success) return { servers: {}, errors: { '': describeIssues(file, top.error) }, text };
  const servers: Record<string, McpServerConfig> = {};
  const errors: Record<string, string> = {};
  const mcpServer = configSchemas().mcpServer;
  for (const [name, raw] of Object.entries(top.data.mcpServers)) {
    const parsed = mcpServer.safeParse(raw);
    if (parsed.success) servers[name] = parsed.data;
    else errors[name] = describeIssues(`${file}: mcpServers.${name}`, parsed.error);
  }
  return { servers, errors, text };
}

/** The trust prompt's lines for a project's `.mcp.json`: each server with what it would run. */
export async function projectMcpPreview(root: string): Promise<TrustItem[]> {
  const { servers } = await readProjectMcpConfig(root);
  return Object.entries(servers).map(([name, config]) => ({
    kind: 'mcp_server' as const,
    name,
    detail: 'command' in config ? [config.command, ...config.args].join(' ') : config.url,
  }));
}
