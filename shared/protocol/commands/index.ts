import type { z } from 'zod';
import { sessionCommands } from './sessions';
import { projectCommands } from './projects';
import { mcpCommands } from './mcp';
import { agentCommands } from './agent';
import { agentsCommands } from './agents';
import { deviceCommands } from './devices';
import { shellCommands } from './shells';
import { settingsCommands } from './settings';
import { trustCommands } from './trust';
import { webCommands } from './web';
import { checkpointCommands } from './checkpoints';
import { rulesCommands } from './rules';
import { fileCommands } from './files';
import { worktreeCommands } from './worktrees';

// The one map of every command. Each area adds its own file and one spread line here.
export const commands = {
  ...rulesCommands,
  ...sessionCommands,
  ...projectCommands,
  ...mcpCommands,
  ...agentCommands,
  ...agentsCommands,
  ...deviceCommands,
  ...shellCommands,
  ...settingsCommands,
  ...trustCommands,
  ...webCommands,
  ...checkpointCommands,
  ...fileCommands,
  ...worktreeCommands,
};

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type RequestOf<K extends CommandName> = z.input<Commands[K]['request']>;
export type ParsedRequestOf<K extends CommandName> = z.output<Commands[K]['request']>;
export type ResponseOf<K extends CommandName> = z.output<Commands[K]['response']>;
