import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import type { ClientContext } from '../../../electron/host/rpc/router';
import type { SessionSummary } from '../../../shared/protocol/session-summary';
import { tempDir } from '../../helpers/temp';
import { makeRepo } from '../projects/git-fixture';

// A host with a temp $MEWBO_HOME and a real repository opened as a project, for the tests of
// sessions in their own git worktree: the protocol as clients call it, real git, real shells.

const client: ClientContext = { clientId: 'test', transport: 'local' };

export interface WorktreeWorld {
  host: Host;
  /** The repository's checkout (real path), opened as project `key`. */
  repo: string;
  key: string;
  /** The folder holding the repository (worktrees go beside it by default). */
  work: string;
  invoke<T = Record<string, unknown>>(method: string, params: unknown): Promise<T>;
  /** The host stopped and started again on the same $MEWBO_HOME (`host` is the new one). */
  restart(): Promise<void>;
  /** A new session in a worktree of the repository. */
  worktreeSession(worktree?: true | { branch: string }): Promise<SessionSummary>;
  /** A shell command of a session in its root, as the agent's shell runs it. */
  sh(sessionId: string, command: string): Promise<{ code: number | null; text: string }>;
  dispose(): Promise<void>;
}

export async function worktreeWorld(opts: { config?: unknown } = {}): Promise<WorktreeWorld> {
  const home = tempDir('mewbo-wt-home-');
  const work = tempDir('mewbo-wt-work-');
  const repo = makeRepo(work.dir, 'repo');
  if (opts.config) {
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(join(home.dir, 'configs', 'app.json'), JSON.stringify(opts.config));
  }
  const start = () => Host.create({ env: { ...process.env, MEWBO_HOME: home.dir } });
  let host = await start();
  const invoke = async <T>(method: string, params: unknown): Promise<T> => {
    const r = await host.router.invoke(method, params, client);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  const { project } = await invoke<{ project: { key: string } }>('projects.openFolder', {
    path: repo,
  });
  return {
    get host() {
      return host;
    },
    async restart() {
      await host.dispose();
      host = await start();
    },
    repo,
    key: project.key,
    work: work.dir,
    invoke,
    async worktreeSession(worktree = true) {
      const r = await invoke<{ session: SessionSummary }>('sessions.create', {
        project: project.key,
        worktree,
      });
      return r.session;
    },
    async sh(sessionId, command) {
      const session = await host.sessions.get(sessionId);
      const root = session.meta.root!;
      const r = await host.shells.forSession(sessionId).run({
        command,
        cwd: root,
        root,
        config: host.config,
        tty: false,
        timeoutMs: 30_000,
      });
      if ('kind' in r) throw new Error(r.message);
      return { code: r.info.exit_code, text: r.result.text };
    },
    async dispose() {
      await host.dispose();
      home.cleanup();
      work.cleanup();
    },
  };
}
