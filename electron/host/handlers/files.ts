import type { ProjectFileIndex } from '../projects/file-index';
import type { McpOfferings } from '../mcp/mcp-offerings';
import type { HandlerMap } from '../rpc/router';
import type { SessionManager } from '../sessions/session-manager';

type FileHandlers = Pick<HandlerMap, 'files.search'>;

/**
 * The `@` menu's search: files in the open session's own project root, and the resources of the
 * MCP servers that session can use.
 */
export function fileHandlers(
  sessions: SessionManager,
  index: ProjectFileIndex,
  offerings?: Pick<McpOfferings, 'resources'>,
): FileHandlers {
  return {
    'files.search': async (req) => {
      const root = (await sessions.get(req.id)).meta.root;
      const resources = (await offerings?.resources(root, req.query, req.limit)) ?? [];
      if (!root) return { files: [], total: 0, root: null, resources };
      return { ...(await index.search(root, req.query, req.limit)), root, resources };
    },
  };
}
