// The host services a tool may use, passed in through ToolContext (no singletons). Each area adds
// its service here as an optional member; a tool whose service is missing returns an error payload.
// Keep one line per service, typed by the owning module.

import type { ReadState } from './read-state';
import type { LspApi } from '../lsp/lazy-lsp';
import type { DeviceHub } from '../devices/device-hub';
import type { PanelLookup, QuestionBroker } from '../agent/interaction';
import type { ElicitationAsker } from '../mcp/elicitation';
import type { ShellService } from '../shells/shell-service';
import type { ProjectSwitcher } from '../projects/project-switcher';
import type { RulesService } from '../rules/rules-service';
import type { SkillService } from '../skills/skill-service';
import type { CommandService } from '../commands/command-service';
import type { RemoteTools } from '../remote/remote-tools';
import type { EditorFiles } from './editor-files';
import type { EditorTerminals } from './editor-terminals';

export interface ToolServices {
  /** read_file: slices already read this session (dedup) and line indexes of big files. */
  readState?: ReadState;
  /** lsp_tool and passive diagnostics: the language servers of this host. */
  lsp?: LspApi;
  /** Device tools: what a paired phone attached to the session offers (toolsFor, call). */
  devices?: DeviceHub;
  /** ask_user_question: puts questions to the user of the running session (absent when headless). */
  questions?: QuestionBroker;
  /** MCP tools: who answers their server's elicitations (absent when headless: they are declined). */
  elicitation?: ElicitationAsker;
  /** present_ui: the panels presented earlier in the session (ui_id replace, container edits). */
  panels?: PanelLookup;
  /** aider_shell_tool and shell_session_tool: the host's shells (one manager per session) and the sandbox. */
  shells?: ShellService;
  /** list_projects and switch_project: the project registry and the session's move between projects. */
  projects?: ProjectSwitcher;
  /** Dispatch: the user's permission rules and hooks (issue 20). */
  rules?: RulesService;
  /** The `skill` tool and the system prompt's skill list (issue 20). */
  skills?: SkillService;
  /** `/name` messages: the user's commands and skills (issue 20). */
  commands?: CommandService;
  /** Sessions whose project is on an SSH host: their file, shell and language tools run there. */
  remote?: RemoteTools;
  /** read_file and the edit tools: the editor's buffers, from the client driving the session (`mewbo acp`). */
  editorFiles?: EditorFiles;
  /** aider_shell_tool: the editor's terminals for foreground commands, from the client driving the session. */
  editorTerminals?: EditorTerminals;
  /** The user's own instruction files for every project ($MEWBO_HOME/AGENTS.md, ~/.claude/CLAUDE.md). */
  userInstructionFiles?: readonly string[];
  [name: string]: unknown;
}

/** The services a client brings for the runs it drives (AgentSendOptions.clientServices). */
export type ClientServices = Pick<ToolServices, 'editorFiles' | 'editorTerminals'>;
