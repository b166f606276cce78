import { z } from 'zod';
import { errorPayload } from '../../../shared/tools/payload';
import { defineTool } from './tool';

const REFUSALS = new Set(['not_found', 'no_checkout', 'unavailable', 'worktree_session']);

/** Seed: `project`, a key list_projects reported; auto workspace mode only, root agent only. */
export const switchProjectTool = defineTool({
  name: 'switch_project',
  description:
    "Moves this session into another project: the working directory changes to the project's folder and its " +
    'CLAUDE.md or AGENTS.md instructions load. Use a key from list_projects. You may switch back and forth. ' +
    'A switch never adds tools: you keep the tools you started with.',
  parameters: z.object({
    project: z
      .string()
      .trim()
      .min(1, 'project is empty: pass a key from list_projects')
      .describe('A key reported by list_projects'),
  }),
  // Not read-only: a switch changes the root of every later call, so it never runs beside another
  // call. It widens what the agent reaches (another project's files and shells): asked in ask mode.
  flags: { readOnly: false, rootOnly: true, autoWorkspaceOnly: true, approval: 'scope' },
  async run(ctx, args) {
    if (ctx.agentId !== 'root')
      return errorPayload(
        'root_only',
        'only the root agent can switch projects; a sub-agent keeps the directory it started in',
      );
    if (ctx.config.agent.workspace_mode !== 'auto')
      return errorPayload(
        'not_available',
        'switch_project works only in auto workspace mode (agent.workspace_mode)',
      );
    const projects = ctx.services.projects;
    if (!projects)
      return errorPayload('not_available', 'the project registry is not available in this context');
    try {
      const r = await projects.switchSession(ctx.sessionId, args.project);
      return {
        kind: 'project_switch',
        from: r.from,
        to: r.project.key,
        name: r.project.name,
        project_kind: r.project.kind,
        root: r.project.path,
        branch: r.project.branch,
        repo: r.project.repo,
        instructions: r.instructions,
        unchanged: r.unchanged,
        message: r.unchanged
          ? `Already in ${r.project.name} (${r.project.path}).`
          : `Now working in ${r.project.name} at ${r.project.path}; every following tool call runs there.${r.instructions ? ` Its ${r.instructions.file.split('/').pop()} is included below.` : ''}`,
      };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && REFUSALS.has(code))
        return errorPayload(code, (err as Error).message, { project: args.project });
      throw err;
    }
  },
});
