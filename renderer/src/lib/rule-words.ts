// A permission rule as a person reads it. Rules are written in Claude Code's syntax with the
// app's tool names (`aider_shell_tool(npm test:*)`, `aider_edit_block_tool(src/a.ts)`), which is
// what Settings lists and what a settings file holds; an approval card says what the rule allows
// in words instead ("commands that start with npm test"), the raw rule in its tooltip.

const SHELL = new Set(['aider_shell_tool', 'shell_session_tool', 'Bash']);
const EDIT = new Set([
  'file_edit_tool',
  'aider_edit_block_tool',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
]);
const READ = new Set(['read_file', 'Read']);
const LIST = new Set(['aider_list_dir_tool', 'LS', 'Glob']);

/** What `rule` allows, in words: "commands that start with “npm test”", "edits to src/a.ts". */
export function ruleInWords(rule: string): string {
  const m = /^([^(]+?)\s*(?:\((.*)\))?$/s.exec(rule.trim());
  if (!m) return rule;
  const tool = m[1]!;
  const pattern = m[2]?.trim();
  if (SHELL.has(tool)) {
    if (!pattern) return 'any command';
    const prefix = /^(.*?)(?::\*| \*)$/s.exec(pattern);
    return prefix ? `commands that start with “${prefix[1]}”` : `the command “${pattern}”`;
  }
  if (EDIT.has(tool)) return pattern ? `edits to ${pattern}` : 'edits to any file';
  if (READ.has(tool)) return pattern ? `reading ${pattern}` : 'reading any file';
  if (LIST.has(tool)) return pattern ? `listing ${pattern}` : 'listing folders';
  if (tool === 'Network') return pattern ? `connections to ${pattern}` : 'connections anywhere';
  const mcp = /^mcp__([^_]+(?:_[^_]+)*?)(?:__(.+))?$/.exec(tool);
  if (mcp) return !mcp[2] || mcp[2] === '*' ? `every tool of ${mcp[1]}` : `${mcp[1]} · ${mcp[2]}`;
  const device = /^device_(.+)$/.exec(tool);
  if (device) return `the phone's ${device[1]!.replace(/_/g, ' ')}`;
  return pattern ? `${tool} (${pattern})` : tool;
}
