import type { HandlerMap } from '../rpc/router';
import type { SessionManager } from '../sessions/session-manager';
import type { SendOptions, SessionRunner } from '../sessions/session-runner';
import {
  budgetAfter,
  mentionReadings,
  mentionedPaths,
  readMentions,
} from '../sessions/file-mentions';
import type { McpOfferings } from '../mcp/mcp-offerings';
import { DEFAULT_SESSION_TITLE, titleFromMessage } from '../sessions/session-title';
import type { SessionWorktrees } from '../worktrees/session-worktrees';
import { HostError } from '../rpc/host-error';

type SessionHandlers = Pick<
  HandlerMap,
  | 'sessions.list'
  | 'sessions.create'
  | 'sessions.open'
  | 'sessions.events'
  | 'sessions.rename'
  | 'sessions.delete'
  | 'sessions.search'
  | 'sessions.find'
  | 'sessions.send'
  | 'sessions.stop'
  | 'sessions.regenerate'
  | 'sessions.setMode'
  | 'sessions.setAgent'
  | 'sessions.setModel'
  | 'sessions.compact'
>;

export interface SessionHandlerDeps {
  sessions: SessionManager;
  runner: SessionRunner;
  /**
   * Resolves a project key to its root (null key: the session is bound to no project); `remote`:
   * the project's ssh:// URL when the root is a folder on that host.
   */
  resolveProject(
    key: string | null,
  ): Promise<{ key: string | null; root: string | null; remote: string | null }>;
  /** Sessions in their own git worktree (`sessions.create` with `worktree`). */
  worktrees: SessionWorktrees;
  /** Connected MCP servers' resources, attached with `@server:uri`. */
  resources?: Pick<McpOfferings, 'read'>;
  /** Throws (HostError) when no external agent of that name can run (`sessions.create` with `agent`). */
  checkAgent?(name: string): void;
}

/** The user's message to a session (from the desktop, or a phone with remote rights). */
export async function sendToSession(
  { sessions, runner }: Pick<SessionHandlerDeps, 'sessions' | 'runner'>,
  id: string,
  text: string,
  opts: SendOptions,
): Promise<{ message_id: string }> {
  const session = await sessions.get(id);
  const sent = await runner.send(session, text, opts);
  // Untitled until now: the first message names it (the user can rename it any time).
  const title = session.meta.title === DEFAULT_SESSION_TITLE && titleFromMessage(text);
  if (title) await sessions.rename(id, title, 'app');
  return sent;
}

export function sessionHandlers({
  sessions,
  runner,
  resolveProject,
  worktrees,
  resources,
  checkAgent,
}: SessionHandlerDeps): SessionHandlers {
  return {
    'sessions.list': async () => ({ sessions: await sessions.list() }),
    'sessions.create': async (req) => {
      const project = await resolveProject(req.project ?? null);
      if (project.remote && req.agent !== undefined)
        // An agent process is confined to a local checkout.
        throw new HostError(
          'unsupported',
          `a session on a project on an SSH host (${project.remote}) runs the app's own agent in the project's folder there: create it without an external agent`,
        );
      if (req.agent !== undefined) {
        if (!checkAgent) throw new HostError('no_agent', 'this host runs no external agents');
        checkAgent(req.agent);
        if (req.worktree)
          throw new HostError(
            'unsupported',
            'a session with an external agent cannot have its own worktree yet: create it without one',
          );
      }
      if (req.worktree) {
        if (!project.root)
          throw new HostError(
            'no_project',
            'a session in its own worktree needs a project that is a git repository: pick one first',
          );
        const made = await worktrees.createSession({
          title: req.title,
          project: project.key,
          projectRoot: project.root,
          request: req.worktree,
          // A remote project's worktree is made on its host, by its git.
          ...(project.remote ? { remote: project.remote } : {}),
        });
        return { session: made.session.summary(), copy: made.copy };
      }
      const session = await sessions.create({
        title: req.title,
        project: project.key,
        root: project.root,
        ...(project.remote ? { remote: project.remote } : {}),
        ...(req.agent !== undefined ? { agent: req.agent } : {}),
      });
      return { session: session.summary() };
    },
    'sessions.open': async (req) => {
      const view = await sessions.view(req.id, req.limit);
      if (req.from === undefined) return view;
      const events = await sessions.page(req.id, req.from, req.from + req.limit);
      return { ...view, events, start: req.from, next: req.from + events.length };
    },
    'sessions.events': async (req) => {
      const start = Math.max(0, req.before - req.limit);
      return { events: await sessions.page(req.id, start, req.before), start };
    },
    'sessions.rename': async (req) => ({ session: await sessions.rename(req.id, req.title) }),
    'sessions.delete': async (req) => {
      // The worktree first: a refusal (work the user has not seen go) leaves the session too.
      if (req.worktree === 'remove')
        await worktrees.removeForDelete(req.id, { discardWork: req.discard_work });
      await sessions.delete(req.id);
      return { ok: true as const };
    },
    'sessions.search': async (req) => ({ hits: await sessions.search(req.query) }),
    'sessions.find': async (req) => ({
      matches: await sessions.find(req.id, req.query, req.before),
    }),
    'sessions.send': async (req) => {
      const session = await sessions.get(req.id);
      const root = session.meta.root;
      const files = root ? await readMentions(root, req.text) : [];
      const read =
        (await resources?.read(
          root,
          mentionedPaths(req.text).map(mentionReadings),
          budgetAfter(files),
        )) ?? [];
      const mentions = [...files, ...read];
      return sendToSession({ sessions, runner }, req.id, req.text, {
        capabilities: req.capabilities,
        images: req.images,
        ...(mentions.length ? { mentions } : {}),
        ...(req.pastes?.length ? { pastes: req.pastes } : {}),
      });
    },
    'sessions.stop': async (req) => {
      await runner.stop(await sessions.get(req.id));
      return { ok: true as const };
    },
    'sessions.regenerate': async (req) => {
      await runner.regenerate(await sessions.get(req.id), req.message_id, {
        capabilities: req.capabilities,
      });
      return { ok: true as const };
    },
    'sessions.setMode': async (req) => {
      await runner.setMode(await sessions.get(req.id), req.mode);
      return { ok: true as const };
    },
    'sessions.setAgent': async (req) => {
      const session = await sessions.get(req.id);
      if (session.events().some((e) => e.type === 'user_message'))
        throw new HostError(
          'agent_fixed',
          'this session already has messages, and its agent holds that conversation: start a new session to use another agent',
        );
      if (req.agent !== null) {
        if (!checkAgent) throw new HostError('no_agent', 'this host runs no external agents');
        checkAgent(req.agent);
        if (session.meta.worktree)
          throw new HostError(
            'unsupported',
            'a session in its own worktree cannot run an external agent yet: start a session in the checkout',
          );
      }
      if ((session.meta.agent ?? null) === req.agent) return { session: session.summary() };
      return { session: await sessions.setAgent(req.id, req.agent) };
    },
    'sessions.setModel': async (req) => {
      await runner.setModel(await sessions.get(req.id), req.model, req.thinking);
      return { ok: true as const };
    },
    'sessions.compact': async (req) =>
      runner.compact(await sessions.get(req.id), { clear: req.clear }),
  };
}
