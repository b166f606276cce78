import type { HandlerMap, TopicProvider } from '../rpc/router';
import type { ProjectRegistry } from '../projects/project-registry';
import type { McpManager } from '../mcp/mcp-manager';
import { toDisposable } from '../lifecycle/disposable';
import { completeFolder } from '../projects/folder-completion';
import { userSshHosts } from '../projects/ssh-config-hosts';

type ProjectHandlers = Pick<
  HandlerMap,
  | 'projects.list'
  | 'projects.openFolder'
  | 'projects.completeFolder'
  | 'projects.addRemote'
  | 'projects.sshHosts'
  | 'projects.create'
  | 'projects.addRepository'
  | 'projects.checkout'
  | 'projects.remove'
  | 'projects.rename'
  | 'projects.open'
  | 'projects.createWorktree'
  | 'mcp.servers'
  | 'mcp.restart'
  | 'mcp.signIn'
  | 'mcp.signOut'
>;

export function projectHandlers(registry: ProjectRegistry, mcp: McpManager): ProjectHandlers {
  return {
    'projects.list': async (req) => registry.list({ fresh: req.refresh }),
    'projects.openFolder': async (req) => ({
      project: await registry.add(req.path, { name: req.name, description: req.description }),
    }),
    'projects.completeFolder': (req) => completeFolder(req.path),
    'projects.sshHosts': async () => ({ hosts: await userSshHosts() }),
    'projects.addRemote': async (req) => ({
      project: await registry.addRemote(req.url, { name: req.name }),
    }),
    'projects.create': async (req) => ({
      project: await registry.create(req.parent, req.name, req.git_init),
    }),
    'projects.addRepository': async (req) => ({ project: await registry.addRepository(req) }),
    'projects.checkout': async (req) => ({
      project: await registry.checkout(req.project, req.path),
    }),
    'projects.remove': async (req) => {
      await registry.remove(req.project);
      return { ok: true as const };
    },
    'projects.rename': async (req) => ({ project: await registry.rename(req.project, req.name) }),
    'projects.open': async (req) => ({ project: await registry.open(req.project) }),
    'projects.createWorktree': async (req) => ({
      project: await registry.createWorktree(req.project, req),
    }),
    'mcp.servers': async () => ({ servers: await mcp.servers() }),
    'mcp.restart': async (req) => ({ server: await mcp.restart(req.id) }),
    'mcp.signIn': async (req) => {
      const started = await mcp.signIn(req.id);
      return { authorization_url: started.authorizationUrl, opened_with: started.openedWith };
    },
    'mcp.signOut': async (req) => ({ server: await mcp.signOut(req.id) }),
  };
}

/** `mcp`: a server's state, tools or sign-in changed; Settings asks `mcp.servers` again. */
export function mcpTopic(mcp: McpManager): TopicProvider {
  return async (_rest, _cursor, sink) => {
    const sub = mcp.onDidChange(() => sink({ type: 'mcp' }));
    return toDisposable(() => sub.dispose());
  };
}

/** `projects`: the whole listing on every change (a folder vanished, a project added or renamed). */
export function projectsTopic(registry: ProjectRegistry): TopicProvider {
  return async (_rest, _cursor, sink) => {
    const sub = registry.onDidChange((listing) => sink({ type: 'projects', ...listing }));
    return toDisposable(() => sub.dispose());
  };
}
