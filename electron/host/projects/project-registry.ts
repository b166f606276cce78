import { mkdir, realpath } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Emitter, type Event } from '../lifecycle/emitter';
import type { Disposable } from '../lifecycle/disposable';
import type { ProjectConfig, RemoteProjectConfig } from '../config/schema';
import type {
  HostKeyRefusal,
  ProjectEntry,
  RemoteConnectionState,
} from '../../../shared/protocol/commands/projects';
import { HostError } from '../rpc/host-error';
import { RECENT_MAX, REFRESH_INTERVAL_MS } from './constants';
import { probeDir } from './disk';
import { git, repoFacts, repoSlug, type FolderGitState } from './git';
import { addWorktree, cloneRepository } from './git-ops';
import {
  loadRegistryState,
  saveRegistryState,
  uniqueId,
  slugify,
  type RegistryState,
} from './registry-state';
import { scanProjects } from './registry-scan';
import { remoteDefaultName, remoteEntries, type RemoteLink } from './remote-entries';
import { formatSshUrl, parseSshUrl, sshHostUrl, type SshTarget } from '../remote/ssh-url';
import PQueue from 'p-queue';

export interface ProjectListing {
  projects: ProjectEntry[];
  /** Keys, most recently opened first. */
  recent: string[];
}

/**
 * Where a session on a project works: `root` is a local folder, or with `remote` (the project's
 * ssh:// URL) the folder on that host, where the session's tools run (electron/host/remote/).
 */
export interface ProjectPlace {
  key: string;
  root: string;
  remote: string | null;
}

export interface ProjectRegistryOptions {
  /** $MEWBO_HOME/state */
  stateDir: string;
  /** $MEWBO_HOME: default parent of new worktrees and checkouts. */
  home: string;
  /** configs/app.json `projects`. */
  configured: Record<string, ProjectConfig>;
  /** configs/app.json `remote_projects`. */
  configuredRemote?: Record<string, RemoteProjectConfig>;
  refreshIntervalMs?: number;
}

/**
 * Every project the app knows: configured, managed, worktrees of registered repositories, and
 * repositories (possibly not checked out). Scans are async with deadlines; the last result is
 * always at hand, and changes (including folders that vanished) are announced on onDidChange.
 */
export class ProjectRegistry implements Disposable {
  private entries: ProjectEntry[] = [];
  private scanned = false;
  private scanning: Promise<ProjectEntry[]> | null = null;
  private rescan = false;
  /** State changes one at a time: each reads the state the previous one left. */
  private readonly writes = new PQueue({ concurrency: 1 });
  private readonly timer: NodeJS.Timeout;
  /** Each SSH host's link (sshHostUrl) as the remote part last set it (absent: disconnected); not persisted. */
  private readonly links = new Map<string, RemoteLink>();
  /** Each remote project's git state (by its URL) as its host's git last read it; not persisted. */
  private readonly remoteGits = new Map<string, FolderGitState | null>();
  private readonly changed = new Emitter<ProjectListing>();
  readonly onDidChange: Event<ProjectListing> = this.changed.event;

  private constructor(
    private readonly opts: ProjectRegistryOptions,
    private state: RegistryState,
  ) {
    this.timer = setInterval(
      () => void this.refreshIdle()?.catch((err) => console.error('[projects] scan failed', err)),
      opts.refreshIntervalMs ?? REFRESH_INTERVAL_MS,
    );
    this.timer.unref();
  }

  static async open(opts: ProjectRegistryOptions): Promise<ProjectRegistry> {
    return new ProjectRegistry(opts, await loadRegistryState(opts.stateDir));
  }

  /** The listing; a fresh scan when asked or when none has run, otherwise the last one (and a scan starts in the background). */
  async list(opts: { fresh?: boolean } = {}): Promise<ProjectListing> {
    if (opts.fresh || !this.scanned) await this.refresh();
    else void this.refreshIdle()?.catch(() => {});
    return this.listing();
  }

  /** The last scan, without waiting (the sandbox asks at every spawn and must not block on disks). */
  snapshot(): readonly ProjectEntry[] {
    return this.entries;
  }

  async get(key: string): Promise<ProjectEntry | undefined> {
    return (await this.refresh()).find((e) => e.key === key);
  }

  /**
   * Where a new session on `key` works: a local folder as resolveFolder checks it, or a folder on
   * an SSH host (nothing is contacted here: the session's first tool call opens the link).
   */
  async resolve(key: string): Promise<ProjectPlace> {
    const entry = await this.current(key);
    if (entry?.remote) return { key, root: entry.remote.path, remote: entry.remote.url };
    return { key, root: localFolder(key, entry).path, remote: null };
  }

  /**
   * The local folder of `key`, for what reads or writes it from this computer (switching a
   * session into it, a worktree, an import), or a refusal: not_found, remote_project, no_checkout,
   * unavailable.
   */
  async resolveFolder(key: string): Promise<ProjectEntry & { path: string }> {
    return localFolder(key, await this.current(key));
  }

  /**
   * `key`'s entry as the last scan found it, while its folder is still there; else as a scan now
   * finds it (a project not seen yet, a folder gone or back). A scan spawns git twice per project,
   * and every new session waits on this: with ten projects that was twenty processes for one.
   * The registry's own changes rescan before they return, so the last scan has them.
   */
  private async current(key: string): Promise<ProjectEntry | undefined> {
    const known = this.scanned ? this.entries.find((e) => e.key === key) : undefined;
    if (known?.remote) return known;
    if (known?.available && known.path !== null && (await probeDir(known.path)) === 'present')
      return known;
    return this.get(key);
  }

  /**
   * A scan for the clock and for listings served from the last scan: none while one runs. Queuing
   * one more (as refresh does) let a scan slower than the interval be followed by another forever,
   * so it never ended and no change was ever announced.
   */
  private refreshIdle(): Promise<ProjectEntry[]> | undefined {
    return this.scanning ? undefined : this.refresh();
  }

  /** Scans now; concurrent callers share a scan, and a change during one queues exactly one more. */
  refresh(): Promise<ProjectEntry[]> {
    if (this.scanning) {
      this.rescan = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      try {
        let next: ProjectEntry[];
        do {
          this.rescan = false;
          next = [
            ...(await scanProjects(this.opts.configured, this.state)),
            ...remoteEntries(
              this.opts.configuredRemote ?? {},
              this.state,
              this.links,
              this.remoteGits,
            ),
          ];
        } while (this.rescan);
        const changed = !this.scanned || JSON.stringify(next) !== JSON.stringify(this.entries);
        this.entries = next;
        this.scanned = true;
        if (changed) this.changed.fire(this.listing());
        return next;
      } finally {
        this.scanning = null;
      }
    })();
    return this.scanning;
  }

  private listing(): ProjectListing {
    const recent = this.entries
      .filter((e) => e.last_opened_at !== null)
      .sort((a, b) => b.last_opened_at! - a.last_opened_at!)
      .slice(0, RECENT_MAX)
      .map((e) => e.key);
    return { projects: this.entries, recent };
  }

  /** Serialized state changes: mutate, persist atomically, rescan. */
  private mutate<T>(fn: (state: RegistryState) => Promise<T> | T): Promise<T> {
    return this.writes.add(async () => {
      const draft = structuredClone(this.state);
      const result = await fn(draft);
      await saveRegistryState(this.opts.stateDir, draft);
      this.state = draft;
      await this.refresh();
      return result;
    });
  }

  private byPath(path: string): ProjectEntry | undefined {
    return this.entries.find((e) => e.path === path);
  }

  private async existingDir(path: string): Promise<string> {
    const probe = await probeDir(path);
    if (probe === 'timeout')
      throw new HostError('unavailable', `${path} did not answer (a slow or disconnected disk?)`);
    if (probe === 'missing') throw new HostError('invalid_path', `${path} is not a folder`);
    return realpath(path);
  }

  private entry(key: string): ProjectEntry {
    const e = this.entries.find((x) => x.key === key);
    if (!e) throw new HostError('internal', `project '${key}' vanished during the update`);
    return e;
  }

  async add(
    path: string,
    opts: { name?: string; description?: string } = {},
  ): Promise<ProjectEntry> {
    const real = await this.existingDir(resolve(path));
    await this.refresh();
    const known = this.byPath(real);
    if (known) return this.open(known.key);
    const key = await this.mutate((s) => {
      const id = uniqueId(opts.name ?? basename(real), new Set(s.managed.map((m) => m.id)));
      s.managed.push({
        id,
        path: real,
        name: opts.name ?? basename(real),
        description: opts.description ?? '',
        added_at: Date.now(),
      });
      s.opened[`managed:${id}`] = Date.now();
      return `managed:${id}`;
    });
    return this.entry(key);
  }

  /**
   * Registers a folder on an SSH host by its ssh:// URL (an already registered one, in any
   * spelling of the same target, returns its entry). Nothing is contacted: the remote part
   * connects when a session needs the project.
   */
  async addRemote(url: string, opts: { name?: string } = {}): Promise<ProjectEntry> {
    const canonical = formatSshUrl(parseSshUrl(url));
    await this.refresh();
    const known = this.entries.find((e) => e.remote?.url === canonical);
    if (known) return known;
    const name = opts.name ?? remoteDefaultName(canonical);
    const key = await this.mutate((s) => {
      const id = uniqueId(name, new Set(s.remotes.map((r) => r.id)));
      s.remotes.push({ id, url: canonical, name, description: '', added_at: Date.now() });
      s.opened[`remote:${id}`] = Date.now();
      return `remote:${id}`;
    });
    return this.entry(key);
  }

  /** Where a remote project lives, for the remote part to connect to. */
  async remoteTarget(key: string): Promise<SshTarget> {
    const entry = await this.get(key);
    if (!entry) throw new HostError('not_found', `no project '${key}'`);
    if (!entry.remote) throw new HostError('not_remote', `project '${key}' is a local folder`);
    return parseSshUrl(entry.remote.url);
  }

  /**
   * The remote part reports the link of an SSH host (`url`: any URL on it) for every project
   * there, and with `hostKey` a connection its host key stopped (the picker asks the user about
   * it); listeners of onDidChange see it at once.
   */
  async setHostState(
    url: string,
    state: RemoteConnectionState,
    hostKey: HostKeyRefusal | null = null,
  ): Promise<void> {
    this.links.set(sshHostUrl(url), { state, hostKey });
    await this.refresh();
  }

  /**
   * The git state of the remote project at `url` (branch, origin, files not committed) as its
   * host's git read it (remote/remote-git-watch.ts); null: the folder is in no repository.
   */
  async setRemoteGit(url: string, git: FolderGitState | null): Promise<void> {
    this.remoteGits.set(formatSshUrl(parseSshUrl(url)), git);
    await this.refresh();
  }

  async create(parent: string, name: string, gitInit: boolean): Promise<ProjectEntry> {
    if (name.includes('/') || name === '.' || name === '..')
      throw new HostError('invalid_path', `'${name}' is not a folder name`);
    const dir = join(await this.existingDir(resolve(parent)), name);
    if ((await probeDir(dir)) !== 'missing') throw new HostError('exists', `${dir} already exists`);
    await mkdir(dir);
    if (gitInit) {
      const r = await git(['init', '--quiet'], dir);
      if (!r.ok) throw new HostError('git_failed', `git init failed: ${r.error}`);
    }
    return this.add(dir, { name });
  }

  async addRepository(opts: { path?: string; url?: string; name?: string }): Promise<ProjectEntry> {
    let path: string | null = null;
    let url = opts.url ?? null;
    if (opts.path) {
      path = await this.existingDir(resolve(opts.path));
      const facts = await repoFacts(path);
      if (!facts) throw new HostError('not_a_repository', `${path} is not a git repository`);
      url ??= facts.originUrl;
      await this.refresh();
      const known = this.entries.find((e) => e.path === path && e.kind === 'repository');
      if (known) return known;
    }
    const name =
      opts.name ?? (path ? basename(path) : (repoSlug(url)?.split('/').pop() ?? 'repository'));
    const key = await this.mutate((s) => {
      const id = uniqueId(name, new Set(s.repositories.map((r) => r.id)));
      s.repositories.push({ id, name, url, path, description: '', added_at: Date.now() });
      return `repo:${id}`;
    });
    return this.entry(key);
  }

  async checkout(key: string, dest?: string): Promise<ProjectEntry> {
    const record = this.state.repositories.find((r) => `repo:${r.id}` === key);
    if (!record) throw new HostError('not_found', `no registered repository '${key}'`);
    if (record.path)
      throw new HostError('exists', `'${key}' is already checked out at ${record.path}`);
    if (!record.url) throw new HostError('invalid_request', `'${key}' has no URL to clone from`);
    const target = resolve(dest ?? join(this.opts.home, 'checkouts', record.id));
    await cloneRepository(record.url, target);
    const real = await realpath(target);
    await this.mutate((s) => {
      const r = s.repositories.find((x) => x.id === record.id);
      if (r) r.path = real;
    });
    return this.entry(key);
  }

  async remove(key: string): Promise<void> {
    const entry = await this.get(key);
    if (!entry) throw new HostError('not_found', `no project '${key}'`);
    if (entry.kind === 'configured')
      throw new HostError(
        'read_only',
        `'${key}' is configured in configs/app.json; remove it there`,
      );
    if (entry.kind === 'worktree')
      throw new HostError(
        'read_only',
        `'${key}' is a git worktree; remove it with git worktree remove ${entry.path}`,
      );
    await this.mutate((s) => {
      s.managed = s.managed.filter((m) => `managed:${m.id}` !== key);
      s.repositories = s.repositories.filter((r) => `repo:${r.id}` !== key);
      s.remotes = s.remotes.filter((r) => `remote:${r.id}` !== key);
      delete s.names[key];
      delete s.opened[key];
    });
  }

  async rename(key: string, name: string): Promise<ProjectEntry> {
    if (!(await this.get(key))) throw new HostError('not_found', `no project '${key}'`);
    await this.mutate((s) => {
      s.names[key] = name.trim();
    });
    return this.entry(key);
  }

  /** Marks a project opened (the picker's recent list) once it is known to be there (a remote one: known). */
  async open(key: string): Promise<ProjectEntry> {
    const entry = await this.get(key);
    if (!entry?.remote) await this.resolveFolder(key);
    await this.mutate((s) => {
      s.opened[key] = Date.now();
    });
    return this.entry(key);
  }

  async createWorktree(
    key: string,
    opts: { branch: string; path?: string; base?: string },
  ): Promise<ProjectEntry> {
    const entry = await this.resolveFolder(key);
    if (entry.branch === null && !(await repoFacts(entry.path)))
      throw new HostError('not_a_repository', `project '${key}' is not a git repository`);
    const dest = resolve(
      opts.path ?? join(this.opts.home, 'worktrees', slugify(entry.name), slugify(opts.branch)),
    );
    await addWorktree({ repoDir: entry.path, branch: opts.branch, dest, base: opts.base });
    const real = await realpath(dest);
    await this.refresh();
    const created = this.byPath(real);
    if (!created)
      throw new HostError(
        'not_registered',
        `the worktree was created at ${real}, but its repository is not registered, so it is not listed`,
      );
    return created;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.changed.dispose();
  }
}

/** `entry` as a folder on this computer, or the refusal resolveFolder gives for `key`. */
function localFolder(
  key: string,
  entry: ProjectEntry | undefined,
): ProjectEntry & { path: string } {
  if (!entry) throw new HostError('not_found', `no project '${key}'; list_projects shows the keys`);
  if (entry.remote)
    throw new HostError(
      'remote_project',
      `project '${key}' is on the SSH host ${entry.remote.host} (${entry.remote.url}), not a folder on this computer: start a new session on it instead`,
    );
  if (entry.path === null)
    throw new HostError(
      'no_checkout',
      `project '${key}' is a registered repository with no checkout yet`,
    );
  if (!entry.available)
    throw new HostError(
      'unavailable',
      `the folder of project '${key}' (${entry.path}) is not there`,
    );
  return entry as ProjectEntry & { path: string };
}
