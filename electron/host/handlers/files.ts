import type { ProjectFileIndex } from '../projects/file-index';
import type { HandlerMap } from '../rpc/router';
import type { SessionManager } from '../sessions/session-manager';

type FileHandlers = Pick<HandlerMap, 'files.search'>;

/** The `@` menu's file search, in the open session's own project root. */
export function fileHandlers(sessions: SessionManager, index: ProjectFileIndex): FileHandlers {
  return {
    'files.search': async (req) => {
      const root = (await sessions.get(req.id)).meta.root;
      if (!root) return { files: [], total: 0, root: null };
      return { ...(await index.search(root, req.query, req.limit)), root };
    },
  };
}
