import type { GetPromptResult, Prompt, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import type { FileMention } from '../../../shared/protocol/events';
import { HostError } from '../rpc/host-error';
import type { McpConnection } from './mcp-connection';
import type { McpManager } from './mcp-manager';

// What connected MCP servers offer the composer besides tools: their prompts as `/server:prompt`
// commands (prompts/get's messages become the message the model reads) and their resources as
// `@server:uri` mentions (resources/read's contents go with the message like an @ file). Only
// running servers a session in that root can use are offered; a menu never starts a server.

/** A prompt as the `/` menu lists it. */
export interface PromptEntry {
  name: string;
  description: string;
  argument_hint?: string;
  scope: 'user' | 'project';
}

/** A resource as the `@` menu lists it: `ref` is what follows the `@`. */
export interface ResourceEntry {
  ref: string;
  name: string;
  server: string;
  description: string | null;
}

/** The slash-command name grammar (commands/expand-command.ts parseSlash). */
const SLASH_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** The byte limits of an attached file, which an attached resource shares (sessions/constants.ts). */
export interface MentionBudget {
  perItem: number;
  total: number;
  count: number;
}

export class McpOfferings {
  constructor(private readonly mcp: Pick<McpManager, 'connectionsFor'>) {}

  async prompts(root: string | null): Promise<PromptEntry[]> {
    const out: PromptEntry[] = [];
    for (const c of await this.mcp.connectionsFor(root))
      for (const p of c.prompts) {
        const name = `${c.spec.name}:${p.name}`;
        if (!SLASH_NAME.test(name)) continue;
        const hint = argumentHint(p);
        out.push({
          name,
          description: p.description?.trim() || p.title || `prompt of MCP server ${c.spec.name}`,
          ...(hint ? { argument_hint: hint } : {}),
          scope: scopeOf(c),
        });
      }
    return out;
  }

  /**
   * `/server:prompt args` as the model reads it: prompts/get with the words typed after the name
   * given to the prompt's arguments in order (the last takes the rest; `"..."` keeps words
   * together). Null when no running server offers that prompt; a HostError, naming what to type,
   * when a required argument is missing or the server refuses.
   */
  async expand(
    name: string,
    typed: string,
    root: string | null,
  ): Promise<{ name: string; scope: 'user' | 'project'; text: string } | null> {
    const found = await this.findPrompt(name, root);
    if (!found) return null;
    const { connection, prompt } = found;
    const args = promptArguments(prompt, typed);
    const missing = (prompt.arguments ?? []).filter((a) => a.required && !args[a.name]);
    if (missing.length)
      throw new HostError(
        'mcp_prompt_arguments',
        `/${name} needs ${missing.map((a) => `<${a.name}>`).join(' ')}: type ${missing.length > 1 ? 'them' : 'it'} after the name (/${name} ${argumentHint(prompt)})`,
      );
    let result: GetPromptResult;
    try {
      result = await connection.getPrompt(prompt.name, args);
    } catch (err) {
      throw new HostError(
        'mcp_prompt_failed',
        `MCP server '${connection.spec.name}' could not give the prompt '${prompt.name}': ${(err as Error).message}`,
      );
    }
    return { name, scope: scopeOf(connection), text: promptText(result.messages) };
  }

  private async findPrompt(name: string, root: string | null) {
    for (const connection of await this.mcp.connectionsFor(root)) {
      const prefix = `${connection.spec.name}:`;
      if (!name.startsWith(prefix)) continue;
      const prompt = connection.prompts.find((p) => p.name === name.slice(prefix.length));
      if (prompt) return { connection, prompt };
    }
    return null;
  }

  /** The resources whose `server:name` or URI contains `query` (any case), at most `limit`. */
  async resources(root: string | null, query: string, limit: number): Promise<ResourceEntry[]> {
    const q = query.toLowerCase();
    const out: ResourceEntry[] = [];
    for (const c of await this.mcp.connectionsFor(root))
      for (const r of c.resources) {
        if (out.length >= limit) return out;
        const ref = `${c.spec.name}:${r.uri}`;
        if (!`${c.spec.name}:${r.name} ${ref}`.toLowerCase().includes(q)) continue;
        out.push({ ref, name: r.name, server: c.spec.name, description: r.description });
      }
    return out;
  }

  /**
   * The resources the message's `@` mentions name (each mention's readings, as written first),
   * read with resources/read within `budget`; a mention naming no listed resource of a running
   * server is left as plain text, and a resource that cannot be read is attached empty with the
   * reason.
   */
  async read(
    root: string | null,
    mentions: readonly (readonly string[])[],
    budget: MentionBudget,
  ): Promise<FileMention[]> {
    const out: FileMention[] = [];
    const connections = await this.mcp.connectionsFor(root);
    let left = budget.total;
    for (const readings of mentions) {
      if (out.length >= budget.count) break;
      const hit = readings.flatMap((token) =>
        connections.flatMap((c) => {
          const prefix = `${c.spec.name}:`;
          const uri = token.slice(prefix.length);
          return token.startsWith(prefix) && c.resources.some((r) => r.uri === uri)
            ? [{ c, uri, token }]
            : [];
        }),
      )[0];
      if (!hit || out.some((m) => m.path === hit.token)) continue;
      const mention = await readOne(hit.c, hit.uri, Math.min(budget.perItem, left));
      left -= Buffer.byteLength(mention.text);
      out.push({ path: hit.token, ...mention });
    }
    return out;
  }
}

async function readOne(
  connection: McpConnection,
  uri: string,
  maxBytes: number,
): Promise<Omit<FileMention, 'path'>> {
  let contents;
  try {
    contents = (await connection.readResource(uri)).contents;
  } catch (err) {
    return { text: '', note: `could not be read: ${(err as Error).message}` };
  }
  const texts = contents.flatMap((c) =>
    'text' in c && typeof c.text === 'string' ? [c.text] : [],
  );
  const binary = contents.length - texts.length;
  const whole = Buffer.from(texts.join('\n'));
  const kept = whole.subarray(0, maxBytes);
  // A cut may split a character: its remains decode to U+FFFD and are dropped.
  const text = new TextDecoder('utf-8').decode(kept).replace(/\uFFFD+$/, '');
  const notes = [
    ...(kept.length < whole.length
      ? [`only the first ${kept.length} of ${whole.length} bytes are attached`]
      : []),
    ...(binary ? [`${binary} binary part${binary > 1 ? 's' : ''} not attached`] : []),
  ];
  return { text, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

function scopeOf(c: McpConnection): 'user' | 'project' {
  return c.spec.scope === 'app' ? 'user' : 'project';
}

/** `<required> [optional]`, in the prompt's order. */
function argumentHint(prompt: Prompt): string {
  return (prompt.arguments ?? [])
    .map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`))
    .join(' ');
}

/** The typed words given to the prompt's arguments in order; the last argument takes the rest. */
export function promptArguments(prompt: Prompt, typed: string): Record<string, string> {
  const names = (prompt.arguments ?? []).map((a) => a.name);
  const words = [...typed.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  const args: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = i === names.length - 1 ? words.slice(i).join(' ') : words[i];
    if (value) args[name] = value;
  });
  return args;
}

/** prompts/get's messages as the text of one user message. */
function promptText(messages: readonly PromptMessage[]): string {
  const parts = messages.map((m) => ({ role: m.role, text: contentText(m.content) }));
  if (parts.every((p) => p.role === 'user')) return parts.map((p) => p.text).join('\n\n');
  return parts.map((p) => `[${p.role}]\n${p.text}`).join('\n\n');
}

function contentText(content: PromptMessage['content']): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'resource':
      return 'text' in content.resource
        ? `<resource uri="${content.resource.uri}">\n${content.resource.text}\n</resource>`
        : `[binary resource ${content.resource.uri}, not included]`;
    case 'resource_link':
      return `[resource ${content.uri}]`;
    default:
      return `[${content.type} content, not included]`;
  }
}
