import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter } from '../lifecycle/emitter';
import type { AppConfig } from '../config/schema';
import type { HomePaths } from '../config/paths';
import type { SandboxStatus, ShellInfo } from '../../../shared/tools/shell-payload';
import { findInstallRoot, findLauncher } from '../sandbox/launcher';
import { Sandbox } from '../sandbox/sandbox';
import type { ShellSink, ShellSubscription } from './output-stream';
import { limitsFrom, ShellManager } from './shell-manager';
import { ShellSpawner } from './shell-spawner';

// The host's shells: one ShellManager per session (deleting the session disposes its shells),
// one sandbox and one launcher for all. This is what tools reach as ctx.services.shells and what
// the protocol layer subscribes consoles through.

export interface ShellServiceOptions {
  paths: HomePaths;
  /** The current config (limits are read when a session's manager is created). */
  config: () => AppConfig;
  /** The app's install root; found from this file's location when omitted. */
  installRoot?: string | null;
  /** The compiled launcher; found under the install root when omitted. */
  launcher?: string | null;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Projects beyond the config (the registry's), denied to shells like configured ones. */
  registeredProjects?: () => Record<string, string>;
}

/** This bundle's directory; a CommonJS bundle (Electron main) has no import.meta.url. */
function moduleDir(): string {
  const url = (import.meta as { url?: string }).url;
  if (url) return dirname(fileURLToPath(url));
  return process.argv[1] ? dirname(process.argv[1]) : process.cwd();
}

export interface SessionShellEvent {
  sessionId: string;
  shell: ShellInfo;
}

export class ShellService implements Disposable {
  readonly sandbox: Sandbox;
  private readonly managers = new Map<string, ShellManager>();
  private readonly tempRoot: string;
  private readonly launcher: string | null;
  private readonly started = new Emitter<SessionShellEvent>();
  private readonly exited = new Emitter<SessionShellEvent>();
  private disposed = false;
  /** Every shell start and exit, for the protocol layer (consoles, session events). */
  readonly onDidStart = this.started.event;
  readonly onDidExit = this.exited.event;

  constructor(private readonly opts: ShellServiceOptions) {
    const installRoot =
      opts.installRoot !== undefined ? opts.installRoot : findInstallRoot(moduleDir());
    this.launcher = opts.launcher !== undefined ? opts.launcher : findLauncher(installRoot);
    this.tempRoot = mkdtempSync(join(tmpdir(), 'mewbo-shells-'));
    this.sandbox = new Sandbox({
      launcher: this.launcher,
      installRoot,
      configDir: opts.paths.configDir,
      log: opts.log,
      registeredProjects: opts.registeredProjects,
    });
  }

  /** The sandbox state shells get under the current config (ABI, or why there is none). */
  sandboxStatus(): Promise<SandboxStatus> {
    return this.sandbox.status(this.opts.config());
  }

  /** The shells of one session, created on first use. */
  forSession(sessionId: string): ShellManager {
    if (this.disposed) throw new Error('the shell service is disposed');
    let manager = this.managers.get(sessionId);
    if (!manager) {
      const tmpDir = join(this.tempRoot, `tmp-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}`);
      mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
      const spawner = new ShellSpawner({
        sandbox: this.sandbox,
        launcher: this.launcher,
        tmpDir,
        baseEnv: this.opts.env,
      });
      manager = new ShellManager({ spawner, limits: limitsFrom(this.opts.config()) });
      manager.onDidStart((shell) => this.started.fire({ sessionId, shell }));
      manager.onDidExit((shell) => this.exited.fire({ sessionId, shell }));
      this.managers.set(sessionId, manager);
    }
    return manager;
  }

  /** A console's live stream of one shell, or null when there is no such shell. */
  subscribe(
    sessionId: string,
    shellId: string,
    fromCursor: number | undefined,
    sink: ShellSink,
  ): ShellSubscription | null {
    return this.managers.get(sessionId)?.subscribe(shellId, fromCursor, sink) ?? null;
  }

  /** Kills a session's shells (the session was deleted or closed). */
  async disposeSession(sessionId: string): Promise<void> {
    const manager = this.managers.get(sessionId);
    if (!manager) return;
    this.managers.delete(sessionId);
    await manager.dispose();
    rmSync(join(this.tempRoot, `tmp-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}`), {
      recursive: true,
      force: true,
    });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const all = [...this.managers.values()];
    this.managers.clear();
    await Promise.all(all.map((m) => m.dispose()));
    rmSync(this.tempRoot, { recursive: true, force: true });
    this.started.dispose();
    this.exited.dispose();
  }
}
