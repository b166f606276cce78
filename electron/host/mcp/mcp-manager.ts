import { resolve } from 'node:path';
import { Emitter, type Event } from '../lifecycle/emitter';
import { toDisposable, type Disposable, type DisposableStore } from '../lifecycle/disposable';
import type { McpServerConfig } from '../config/schema';
import type { McpServerStatus } from '../../../shared/protocol/commands/mcp';
import type { AnyTool } from '../tools/tool';
import { narrowToHeld } from '../projects/narrow';
import { HostError } from '../rpc/host-error';
import { PROJECT_MCP_FILE, readProjectMcpConfig } from './project-config';
import { ServerGroup, configErrorStatus, untrustedStatus } from './server-group';
import type { McpServerSpec } from './server-spec';
import { safeServerName } from './tool-names';
import type { McpLimits } from './constants';
import type { McpServerSandbox } from './server-sandbox';
import type { McpConnection, McpConnectionOptions } from './mcp-connection';
import type { SecretStore } from '../secrets/secret-store';
import { MemorySecretStore } from '../secrets/memory-secret-store';
import { userStartedSignIn, type SignInPolicy } from './sign-in-policy';

/** What the manager needs of a session: its id and the store its resources die with. */
export interface McpSessionRef {
  id: string;
  resources: DisposableStore;
}

interface ProjectEntry {
  group: Promise<ServerGroup>;
  refs: number;
  /** Whether the group was opened with its servers admitted: a change of trust reopens it. */
  admitted: Promise<boolean>;
}

/** Whether a project's servers may start, and if not, why. */
type Admission = 'admitted' | 'untrusted' | 'changed';

/** Workspace trust as the manager needs it (trust/workspace-trust.ts). */
export interface McpTrust {
  isTrusted(root: string): boolean;
  /** Whether `text`, read from `.mcp.json` of `root`, is what the user trusted there. */
  trustsContent(root: string, rel: string, text: string): Promise<boolean>;
  onDidChange: Event<unknown>;
}

export interface McpManagerOptions {
  /** configs/app.json `mcpServers`. */
  appServers: Record<string, McpServerConfig>;
  /**
   * Workspace trust: an untrusted project's `.mcp.json` servers are listed but never started.
   * Without it no project is trusted.
   */
  trust?: McpTrust;
  limits?: McpLimits;
  /** Set when agent.server_sandbox is on: stdio servers then start only confined. */
  sandbox?: McpServerSandbox;
  /** Where HTTP servers' OAuth tokens live; default: this process's memory (tests). */
  secrets?: SecretStore;
  /** When a server needs sign-in; default: when the user asks, with no browser to open. */
  signIn?: SignInPolicy;
  /** Why a project's HTTP server is not connected from here (McpConnectionOptions). */
  projectHttpRefusal?: (root: string) => string | null;
}

/**
 * Owns every MCP connection. App servers live as long as the host; a project's `.mcp.json`
 * servers live while some session holds that project (a lease in the session's resources), so
 * they stop with their session or when it moves on to another project.
 */
export class McpManager implements Disposable {
  private readonly app: ServerGroup;
  private readonly projects = new Map<string, ProjectEntry>();
  private readonly leases = new Map<string, Map<string, Disposable>>();
  /** Each session's project now: the app servers' roots are these (roots/list). */
  private readonly sessionRoots = new Map<string, string>();
  private readonly changed = new Emitter<void>();
  private disposed = false;
  private readonly trustSub: Disposable | undefined;
  private readonly connectionOptions: McpConnectionOptions;

  /** A server's state or tools changed (the `mcp` topic). */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly opts: McpManagerOptions) {
    const specs = Object.entries(opts.appServers).map(([name, config]): McpServerSpec => ({
      name,
      scope: 'app',
      root: null,
      config,
    }));
    this.connectionOptions = {
      limits: opts.limits,
      sandbox: opts.sandbox,
      secrets: opts.secrets ?? new MemorySecretStore(),
      signIn: opts.signIn ?? userStartedSignIn(null),
      projectHttpRefusal: opts.projectHttpRefusal,
    };
    this.app = new ServerGroup(specs, [], () => this.changed.fire(), {
      ...this.connectionOptions,
      roots: () => [...new Set(this.sessionRoots.values())],
    });
    this.trustSub = opts.trust?.onDidChange(() => void this.retrust());
  }

  /**
   * Whether a project's `.mcp.json` servers may start: the project is trusted and the file is as
   * the user trusted it (a server added or changed since waits until it is trusted again).
   */
  private async admission(root: string, text: string | undefined): Promise<Admission> {
    const trust = this.opts.trust;
    if (!trust?.isTrusted(root)) return 'untrusted';
    if (text === undefined || (await trust.trustsContent(root, PROJECT_MCP_FILE, text)))
      return 'admitted';
    return 'changed';
  }

  /**
   * Reopens every held project whose admission changed: trusting (or trusting a change) starts
   * its servers, revoking stops them.
   */
  private async retrust(): Promise<void> {
    for (const [root, entry] of this.projects) {
      const now = await this.admission(root, (await readProjectMcpConfig(root)).text);
      if ((now === 'admitted') === (await entry.admitted) || this.disposed) continue;
      const old = entry.group;
      Object.assign(entry, this.open(root));
      await (await old).dispose();
      if (await entry.admitted) await (await entry.group).start();
      this.changed.fire();
    }
  }

  /** Starts the app's servers (the host does this in the background at launch). */
  startAppServers(): Promise<void> {
    return this.app.start();
  }

  /**
   * Tools for a run starting in `root`: the app's servers and the project's `.mcp.json` servers.
   * The session's leases on other projects are released (their servers stop if no one else uses them).
   */
  async toolsForRun(session: McpSessionRef, root: string | null): Promise<AnyTool[]> {
    const key = root === null ? null : resolve(root);
    this.setSessionRoot(session, key);
    const mine = this.leases.get(session.id);
    for (const [other, lease] of [...(mine?.entries() ?? [])]) {
      if (other === key) continue;
      mine!.delete(other);
      session.resources.delete(lease);
      await lease.dispose();
    }
    await this.app.start();
    if (key === null) return this.app.tools();
    const group = await this.acquire(session, key);
    await group.start();
    return [...this.app.tools(), ...group.tools()];
  }

  /**
   * Tools after switch_project moved a running agent to `root`: rebuilt for the new directory,
   * then narrowed to `held` (what the run already had). No project server is started mid-run:
   * only projects this session already holds contribute, so switching back restores a project's
   * tools while a new project's `.mcp.json` is not admitted.
   */
  async toolsAfterSwitch(
    session: McpSessionRef,
    root: string | null,
    held: Iterable<string>,
  ): Promise<AnyTool[]> {
    const key = root === null ? null : resolve(root);
    this.setSessionRoot(session, key);
    await this.app.start();
    const rebuilt = this.app.tools();
    const entry = key === null ? undefined : this.projects.get(key);
    if (entry && this.leases.get(session.id)?.has(key!))
      rebuilt.push(...(await entry.group).tools());
    return narrowToHeld(rebuilt, held);
  }

  /**
   * Records where a session works now; when that changes what the app servers' roots are (a
   * session started in, or switched to, another project), they get roots/list_changed.
   */
  private setSessionRoot(session: McpSessionRef, root: string | null): void {
    const before = new Set(this.sessionRoots.values());
    if (!this.sessionRoots.has(session.id) && root !== null)
      session.resources.add(toDisposable(() => this.forgetSession(session.id)));
    if (root === null) this.sessionRoots.delete(session.id);
    else this.sessionRoots.set(session.id, root);
    const after = new Set(this.sessionRoots.values());
    if (before.size !== after.size || [...after].some((r) => !before.has(r)))
      for (const c of this.app.connections) c.rootsChanged();
  }

  private forgetSession(id: string): void {
    if (!this.sessionRoots.delete(id)) return;
    for (const c of this.app.connections) c.rootsChanged();
  }

  private acquire(session: McpSessionRef, root: string): Promise<ServerGroup> {
    if (this.disposed) throw new HostError('disposed', 'the MCP manager is shut down');
    let entry = this.projects.get(root);
    if (!entry) {
      entry = { ...this.open(root), refs: 0 };
      this.projects.set(root, entry);
    }
    let mine = this.leases.get(session.id);
    if (!mine) this.leases.set(session.id, (mine = new Map()));
    if (!mine.has(root)) {
      entry.refs++;
      const lease = toDisposable(() => this.release(session.id, root));
      mine.set(root, lease);
      session.resources.add(lease);
    }
    return entry.group;
  }

  private async release(sessionId: string, root: string): Promise<void> {
    this.leases.get(sessionId)?.delete(root);
    if (this.leases.get(sessionId)?.size === 0) this.leases.delete(sessionId);
    const entry = this.projects.get(root);
    if (!entry || --entry.refs > 0) return;
    this.projects.delete(root);
    await (await entry.group).dispose();
    this.changed.fire();
  }

  private open(root: string): Pick<ProjectEntry, 'group' | 'admitted'> {
    const opened = this.openProject(root);
    return {
      group: opened.then((o) => o.group),
      admitted: opened.then(
        (o) => o.admitted,
        () => false,
      ),
    };
  }

  private async openProject(root: string): Promise<{ group: ServerGroup; admitted: boolean }> {
    const { servers, errors, text } = await readProjectMcpConfig(root);
    const admission = await this.admission(root, text);
    const appNames = new Set(Object.keys(this.opts.appServers).map(safeServerName));
    const specs: McpServerSpec[] = [];
    const failed: McpServerStatus[] = Object.entries(errors).map(([name, error]) =>
      configErrorStatus({ name: name || '.mcp.json', scope: 'project', root }, error),
    );
    for (const [name, config] of Object.entries(servers)) {
      // Two servers under one namespace would make one's tools hide the other's.
      if (appNames.has(safeServerName(name)))
        failed.push(
          configErrorStatus(
            { name, scope: 'project', root },
            `the name '${name}' is already an app server in configs/app.json; rename it in ${root}/.mcp.json`,
          ),
        );
      else if (admission !== 'admitted')
        failed.push(untrustedStatus({ name, scope: 'project', root }, config, admission));
      else specs.push({ name, scope: 'project', root, config });
    }
    const group = new ServerGroup(specs, failed, () => this.changed.fire(), {
      ...this.connectionOptions,
      roots: () => [root],
    });
    this.changed.fire();
    return { group, admitted: admission === 'admitted' };
  }

  async servers(): Promise<McpServerStatus[]> {
    const groups = await Promise.all([...this.projects.values()].map((e) => e.group));
    return [...this.app.statuses(), ...groups.flatMap((g) => g.statuses())];
  }

  /**
   * The servers a session in `root` can use now, for its composer's `/` and `@` menus: the app's,
   * and the project's when some session already holds it (a menu never starts a project's servers).
   */
  async connectionsFor(root: string | null): Promise<McpConnection[]> {
    const entry = root === null ? undefined : this.projects.get(resolve(root));
    const project = entry ? (await entry.group).connections : [];
    return [...this.app.connections, ...project].filter((c) => c.state === 'running');
  }

  private async connection(id: string): Promise<McpConnection> {
    const groups = [
      this.app,
      ...(await Promise.all([...this.projects.values()].map((e) => e.group))),
    ];
    const connection = groups.flatMap((g) => g.connections).find((c) => c.id === id);
    if (!connection) throw new HostError('not_found', `no running MCP server '${id}'`);
    return connection;
  }

  async restart(id: string): Promise<McpServerStatus> {
    const connection = await this.connection(id);
    await connection.restart();
    return connection.status();
  }

  /**
   * Starts a sign-in the user asked for: opens the authorization page with the policy's browser
   * and answers with its address at once (for a link when nothing could be opened); the server
   * restarts signed in when the browser comes back, or says why not, on `onDidChange`.
   */
  async signIn(
    id: string,
  ): Promise<{ authorizationUrl: string | null; openedWith: string | null }> {
    const connection = await this.connection(id);
    if (connection.spec.config.disabled)
      throw new HostError('disabled', `MCP server '${connection.spec.name}' is disabled`);
    const policy = this.connectionOptions.signIn;
    const browser = policy.browser;
    let openedWith: string | null = null;
    const { authorizationUrl, done } = await connection.signIn(async (url) => {
      if (!browser) return;
      // A browser that cannot start still leaves the link for the user.
      await browser.open(url).then(
        () => (openedWith = browser.name),
        () => {},
      );
    }, policy.waitMs);
    if (!authorizationUrl)
      await done.catch((err: unknown) => {
        throw new HostError('sign_in_failed', (err as Error).message);
      });
    return { authorizationUrl, openedWith };
  }

  async signOut(id: string): Promise<McpServerStatus> {
    const connection = await this.connection(id);
    await connection.signOut();
    return connection.status();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.trustSub?.dispose();
    const groups = await Promise.allSettled([...this.projects.values()].map((e) => e.group));
    this.projects.clear();
    this.leases.clear();
    await Promise.allSettled([
      this.app.dispose(),
      ...groups.map((g) => (g.status === 'fulfilled' ? g.value.dispose() : undefined)),
    ]);
    this.changed.dispose();
  }
}
