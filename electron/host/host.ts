import { mkdir } from 'node:fs/promises';
import { DisposableObject } from './lifecycle/disposable';
import { homePaths, type HomePaths } from './config/paths';
import { loadConfigFile } from './config/load-config';
import type { AppConfig } from './config/schema';
import { SessionManager } from './sessions/session-manager';
import { offlineRunner } from './sessions/offline-runner';
import type { SessionRunner } from './sessions/session-runner';
import { Router, type HandlerMap, type TopicProvider } from './rpc/router';
import { sessionHandlers } from './handlers/sessions';
import { sessionTopic, sessionsTopic } from './handlers/session-topics';
import { HostError } from './rpc/host-error';

export interface HostOptions {
  env?: NodeJS.ProcessEnv;
}

/**
 * The composition root of the main process: it creates every service, wires them, and disposes
 * them all in one call (quit). Nothing else constructs long-lived services.
 */
export class Host extends DisposableObject {
  private constructor(
    readonly paths: HomePaths,
    readonly config: AppConfig,
    readonly sessions: SessionManager,
    readonly router: Router,
  ) {
    super();
  }

  static async create(opts: HostOptions = {}): Promise<Host> {
    const env = opts.env ?? process.env;
    const paths = homePaths(env);
    await mkdir(paths.sessionsDir, { recursive: true });
    const config = loadConfigFile(paths.configFile);
    const sessions = new SessionManager(paths.sessionsDir);
    const runner: SessionRunner = offlineRunner();

    const resolveProject = async (key: string | null) => {
      if (key === null) return { key: null, root: null };
      const project = config.projects[key];
      if (!project) throw new HostError('not_found', `no project '${key}'`);
      return { key, root: project.path };
    };

    const handlers: HandlerMap = {
      ...sessionHandlers({ sessions, runner, resolveProject }),
    };
    const topics: Record<string, TopicProvider> = {
      session: sessionTopic(sessions),
      sessions: sessionsTopic(sessions),
    };
    const host = new Host(paths, config, sessions, new Router(handlers, topics));
    host.register(sessions);
    return host;
  }
}
