import { Emitter, type Event } from '../lifecycle/emitter';
import type { Disposable } from '../lifecycle/disposable';
import type { SessionManager } from '../sessions/session-manager';
import type { ProjectEntry } from '../../../shared/protocol/commands/projects';
import { projectInstructions, type ProjectInstructions } from './instructions';
import type { ProjectRegistry } from './project-registry';
import { HostError } from '../rpc/host-error';

export interface ProjectSwitch {
  sessionId: string;
  from: string | null;
  to: string;
  root: string;
}

export interface SwitchOutcome {
  from: string | null;
  project: ProjectEntry & { path: string };
  instructions: ProjectInstructions | null;
  /** The session was already there: nothing was recorded. */
  unchanged: boolean;
}

/**
 * What list_projects and switch_project use (ToolServices.projects), and the one place a session
 * changes project: its meta moves (SessionManager.setProject) and a project_switch event is
 * appended, which the agent loop reads as "the root moved" from the next tool call on.
 */
export class ProjectSwitcher implements Disposable {
  private readonly switched = new Emitter<ProjectSwitch>();
  /**
   * Fires after every switch. Skills accumulate across switches (seed): when skills exist, their
   * loader listens here and adds the new project's skills to the session's set, never dropping
   * the ones it had. There are no skills in this app yet, so nothing listens today.
   */
  readonly onDidSwitch: Event<ProjectSwitch> = this.switched.event;

  constructor(
    private readonly registry: ProjectRegistry,
    private readonly sessions: SessionManager,
  ) {}

  /** A fresh listing for list_projects (the model should not act on a stale "available"). */
  async list(): Promise<ProjectEntry[]> {
    return (await this.registry.list({ fresh: true })).projects;
  }

  /**
   * Refuses (HostError not_found / remote_project / no_checkout / unavailable) rather than staying
   * put silently: a session's tools run where it was created, so it never moves onto an SSH host.
   */
  async switchSession(sessionId: string, key: string): Promise<SwitchOutcome> {
    const session = await this.sessions.get(sessionId);
    // Its root is its own worktree; moving would put it in a checkout that is read-only to it.
    const wt = session.meta.worktree;
    if (wt)
      throw new HostError(
        'worktree_session',
        `this session works in its own worktree (branch ${wt.branch} at ${wt.path}) and stays there; start a new session to work in another project`,
      );
    const project = await this.registry.resolveFolder(key);
    const from = session.meta.project ?? (await this.keyOf(session.meta.root));
    const instructions = await projectInstructions(project.path);
    if (from === key && session.meta.root === project.path)
      return { from, project, instructions, unchanged: true };
    await this.sessions.setProject(sessionId, key, project.path);
    await session.append({ type: 'project_switch', from, to: key, root: project.path });
    await this.registry.open(key).catch(() => {});
    this.switched.fire({ sessionId, from, to: key, root: project.path });
    return { from, project, instructions, unchanged: false };
  }

  /**
   * The project a session bound only to a folder (mewbo run --project DIR, an opened folder) is
   * in: the registry's project at that path, else the path itself, so `from` always names where
   * the session was.
   */
  private async keyOf(root: string | null): Promise<string | null> {
    if (!root) return null;
    const { projects } = await this.registry.list();
    return projects.find((p) => p.path === root)?.key ?? root;
  }

  dispose(): void {
    this.switched.dispose();
  }
}
