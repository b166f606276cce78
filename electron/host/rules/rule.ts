import { parseDomainPattern, type DomainPattern } from '../network/domain-pattern';
import { toolsNamed } from './tool-aliases';

// One permission rule as written: `Tool` or `Tool(pattern)`, Claude Code's syntax. The tool part is
// a tool name (Claude Code's aliases included), `mcp__server` (every tool of that server) or
// `mcp__server__*`. The pattern is a shell command (exact, or a prefix with `:*` / ` *`) for the
// shell tool, a glob on paths for file tools, and otherwise an exact match on the call's arguments
// as text is not attempted: a pattern on another tool is refused so it cannot silently match all.
// `Network(destination)` is no tool: it allows or denies connections of confined processes through
// the egress proxy (network/domain-pattern.ts says what a destination matches); bare `Network`
// covers every destination.

/** The rule name of network destinations. */
export const NETWORK_RULE = 'Network';

export type RuleKind = 'allow' | 'ask' | 'deny';
export const RULE_KINDS: readonly RuleKind[] = ['deny', 'ask', 'allow'];

export interface ParsedRule {
  /** As written (what Settings shows and removes). */
  raw: string;
  /** The name before the parenthesis, as written. */
  toolName: string;
  /** The product tools it covers; a prefix match for `mcp__server` rules. */
  tools: readonly string[];
  /** `mcp__server` / `mcp__server__*`: every tool whose name starts with this. */
  toolPrefix?: string;
  pattern?: string;
  /** A `Network(...)` rule's destination; absent on `Network` alone (every destination). */
  destination?: DomainPattern;
}

export type RuleParse = { ok: true; rule: ParsedRule } | { ok: false; error: string };

const TOOL_NAME = /^[A-Za-z0-9_-]+(\*)?$/;

export function parseRule(raw: unknown): RuleParse {
  if (typeof raw !== 'string') return { ok: false, error: 'a rule must be a string' };
  const text = raw.trim();
  if (!text) return { ok: false, error: 'empty rule' };
  const open = text.indexOf('(');
  let toolName = text;
  let pattern: string | undefined;
  if (open !== -1) {
    if (!text.endsWith(')')) return { ok: false, error: `"${text}": a pattern must end with ")"` };
    toolName = text.slice(0, open).trim();
    pattern = text.slice(open + 1, -1).trim();
    if (!pattern) return { ok: false, error: `"${text}": empty pattern inside ()` };
  }
  if (!TOOL_NAME.test(toolName))
    return { ok: false, error: `"${text}": "${toolName}" is not a tool name` };
  if (toolName.endsWith('*') && !toolName.startsWith('mcp__'))
    return { ok: false, error: `"${text}": only mcp__server__* may end with *` };
  if (toolName.startsWith('mcp__')) {
    const parts = toolName.split('__');
    if (parts.length < 2 || !parts[1])
      return { ok: false, error: `"${text}": an MCP rule is mcp__server or mcp__server__tool` };
    if (pattern !== undefined) return { ok: false, error: `"${text}": MCP rules take no pattern` };
    if (parts.length === 2 || (parts.length === 3 && parts[2] === '*'))
      return {
        ok: true,
        rule: { raw: text, toolName, tools: [], toolPrefix: `mcp__${parts[1]}__` },
      };
  }
  if (toolName === NETWORK_RULE && pattern !== undefined) {
    const dest = parseDomainPattern(pattern);
    if (!dest.ok) return { ok: false, error: `"${text}": ${dest.error}` };
    return {
      ok: true,
      rule: { raw: text, toolName, tools: [], pattern, destination: dest.pattern },
    };
  }
  const tools = toolName === NETWORK_RULE ? [] : toolsNamed(toolName);
  return { ok: true, rule: { raw: text, toolName, tools, pattern } };
}

export function ruleCoversTool(rule: ParsedRule, tool: string): boolean {
  if (rule.toolPrefix) return tool.startsWith(rule.toolPrefix);
  return rule.tools.includes(tool);
}
