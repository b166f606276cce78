import { z } from 'zod';
import { errorPayload } from '../../../shared/tools/payload';
import { defineTool } from './tool';

/** Seed: no parameters; auto workspace mode only, root agent only. */
export const listProjectsTool = defineTool({
  name: 'list_projects',
  description:
    'Lists every project this session can move into with switch_project: configured projects, managed projects and ' +
    'worktrees, and registered git repositories. Each entry has a key (pass it to switch_project), name, kind, ' +
    'description, whether it is available on disk, and its repository slug and branch when known. A repository ' +
    'without a checkout is listed but cannot be switched into; a project on an SSH host has `remote` (its URL, host ' +
    'and whether it is connected).',
  parameters: z.object({}),
  flags: { readOnly: true, rootOnly: true, autoWorkspaceOnly: true, approval: 'none' },
  async run(ctx) {
    const projects = ctx.services.projects;
    if (!projects)
      return errorPayload('not_available', 'the project registry is not available in this context');
    const entries = await projects.list();
    const current = entries.find((e) => e.path === ctx.root)?.key ?? null;
    return {
      kind: 'projects',
      current,
      projects: entries.map(({ last_opened_at: _recency, parent: _parent, remote, ...e }) =>
        remote ? { ...e, remote } : e,
      ),
    };
  },
});
