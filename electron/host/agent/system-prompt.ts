import type { PermissionMode } from '../config/schema';
import { PLAN_TOOL_NAME, SUBAGENT_TOOL_NAME } from './constants';

// The system prompt, assembled in one place: the agent's role, the rules of its tools (only for
// tools it holds this step), the project's CLAUDE.md / AGENTS.md, the date and the platform.

export interface PromptInput {
  agent: 'root' | 'sub';
  root: string;
  /** False when the session is bound to no project (the root is a scratch directory). */
  hasProject: boolean;
  mode: PermissionMode;
  headless: boolean;
  toolNames: readonly string[];
  deferredCount: number;
  /** The user's skills (names and descriptions only; the `skill` tool loads a body). */
  skills?: readonly { name: string; description: string }[];
  /** The user's own instructions, for every project ($MEWBO_HOME/AGENTS.md, ~/.claude/CLAUDE.md). */
  userInstructions?: readonly { file: string; text: string }[];
  instructions: { file: string; text: string } | null;
  date: Date;
  platform: string;
}

const MODE_TEXT: Record<PermissionMode, string> = {
  ask: 'ask: file edits and shell commands wait for the user to approve them.',
  'accept-edits':
    'accept-edits: file edits run at once; shell commands wait for the user to approve them.',
  auto: 'auto: every tool runs without approval.',
  plan: 'plan: only read-only tools are available.',
};

export function buildSystemPrompt(p: PromptInput): string {
  const has = (name: string) => p.toolNames.includes(name);
  const parts: string[] = [];
  parts.push(
    p.agent === 'root'
      ? "You are Mewbo, an AI agent working on the user's project on their own machine. Do what the user asks, working " +
          'through the tools; keep replies short and concrete, and say plainly what you changed and what you could not do.'
      : 'You are a sub-agent of Mewbo, started by the main agent for one task. Work on that task only, through your ' +
          'tools. You cannot ask the user anything: note open questions in your result. Your final message is your ' +
          'report to the main agent: make it complete and self-contained (what you found or changed, file paths, open questions).',
  );
  parts.push(
    [
      '# Environment',
      `- Working directory (the root every path is relative to): ${p.root}${p.hasProject ? '' : ' (a scratch directory: the session is bound to no project)'}`,
      `- Platform: ${p.platform}`,
      `- Date: ${p.date.toISOString().slice(0, 10)}`,
      `- Permission mode: ${MODE_TEXT[p.mode]}${p.headless ? ' This is a headless run: nobody can approve or answer, so a call that needs approval is refused.' : ''}`,
    ].join('\n'),
  );
  const rules = [
    '# Tools',
    '- Every tool returns a JSON payload tagged with "kind". A payload of kind "error" carries a code and a message: read it and correct the call rather than repeating it.',
    '- Read-only calls you make in one step run in parallel; edits and shell commands run one at a time, in the order you gave them.',
    '- Paths are relative to the working directory; nothing outside it can be reached. Read a file before you edit it.',
    '- A call the user denies returns an error result with their reason: do not retry it unchanged.',
  ];
  if (has('update_todos'))
    rules.push(
      '- For work of several steps, keep a todo list with update_todos (the whole list each call, one item in_progress); it does not end your turn.',
    );
  if (has('ask_user_question'))
    rules.push(
      "- When a decision is the user's (a preference, an ambiguity you cannot resolve from the code), ask with ask_user_question instead of guessing.",
    );
  if (has('present_ui'))
    rules.push(
      '- present_ui shows a structured panel to the user; they see it and its text, so do not repeat its content in prose.',
    );
  if (has(SUBAGENT_TOOL_NAME))
    rules.push(
      `- ${SUBAGENT_TOOL_NAME} hands a self-contained task (a search across many files, an investigation) to a sub-agent with a narrowed tool set; it reports back a result.`,
    );
  if (p.deferredCount > 0)
    rules.push(
      `- ${p.deferredCount} more tools are deferred to save context: their names are listed in tool_search; fetch a schema with tool_search before calling one.`,
    );
  parts.push(rules.join('\n'));
  if (p.mode === 'plan' && has(PLAN_TOOL_NAME)) {
    parts.push(
      '# Plan mode\nYou are in plan mode: investigate with read-only tools, then call exit_plan_mode with a concrete ' +
        'step-by-step plan (files to change, commands to run). The user approves it before you act; once approved, the ' +
        'session switches to act mode and you carry it out. If the user rejects it, revise the plan with their feedback.',
    );
  }
  if (p.skills?.length && has('skill'))
    parts.push(
      [
        '# Skills',
        'Skills the user installed. When a task matches one, call `skill` with its name first and follow what it loads:',
        ...p.skills.map((k) => `- ${k.name}: ${k.description.replace(/\s+/g, ' ')}`),
      ].join('\n'),
    );
  for (const u of p.userInstructions ?? [])
    parts.push(`# The user's instructions (${u.file}), for every project\n${u.text}`);
  if (p.instructions)
    parts.push(`# Project instructions (${p.instructions.file})\n${p.instructions.text}`);
  return parts.join('\n\n');
}
