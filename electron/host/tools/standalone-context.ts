import { loadCheckedConfigFile } from '../config/checked-config';
import type { AppConfig } from '../config/schema';
import { homePaths } from '../config/paths';
import { DisposableStore, toDisposable } from '../lifecycle/disposable';
import type { SessionEventBody } from '../../../shared/protocol/events';
import { narrowRoot } from '../fs/safe-path';
import type { ToolServices } from './services';
import {
  standaloneServiceFactories,
  type ServiceFactory,
  type StandaloneEnv,
} from './standalone-services';
import type { ToolContext } from './tool';

// A ToolContext for running tools with no session and no model: config from $MEWBO_HOME, the
// services from the standalone factories, and events handed to a callback instead of a log.

export interface StandaloneOptions {
  root: string;
  env?: NodeJS.ProcessEnv;
  /** Receives what a tool emits (todos, panels...); there is no session log to append to. */
  onEvent?: (event: SessionEventBody) => void;
  dedupReads?: boolean;
  /**
   * Only read-only tools run in this context (`mewbo tool read_file`): it gets no shell service
   * and writes no policy file, so neither their code nor the user's rules are loaded.
   */
  readOnly?: boolean;
  factories?: ServiceFactory[];
  /**
   * What the shells of a session working in a git worktree get of its repository (the remote
   * part works it out on its host: remote/host-worktree-grant.ts).
   */
  worktree?: StandaloneEnv['worktree'];
  /** Adjusts the loaded config (the remote part adds the app's own paths to the deny list). */
  configure?: (config: AppConfig) => AppConfig;
}

export interface StandaloneContext {
  ctx: ToolContext;
  /** Ends every service the factories started and aborts the context's signal. */
  dispose(): Promise<void>;
}

/** Throws ConfigError for a bad configs/app.json and PathValidationError for a bad root. */
export async function createStandaloneContext(opts: StandaloneOptions): Promise<StandaloneContext> {
  const home = homePaths(opts.env ?? process.env);
  const loaded = await loadCheckedConfigFile(home);
  const config = opts.configure ? opts.configure(loaded) : loaded;
  const root = narrowRoot(opts.root);
  const store = new DisposableStore();
  const abort = new AbortController();
  store.add(toDisposable(() => abort.abort()));
  const services: ToolServices = {};
  try {
    for (const factory of opts.factories ?? standaloneServiceFactories) {
      const part = await factory({
        root,
        config,
        home,
        store,
        dedupReads: opts.dedupReads ?? true,
        readOnly: opts.readOnly ?? false,
        worktree: opts.worktree,
      });
      // Descriptors, not values: a service a factory builds on first use stays a getter.
      Object.defineProperties(services, Object.getOwnPropertyDescriptors(part));
    }
  } catch (err) {
    await store.dispose();
    throw err;
  }
  const ctx: ToolContext = {
    root,
    // Unique among this machine's contexts, not secret (the shells' temp folders are mkdtemp's):
    // no node:crypto, whose 17 modules were a tenth of `mewbo tool read_file` (issue #26 part 4).
    sessionId: `standalone_${process.pid.toString(36)}_${Math.random().toString(36).slice(2, 10)}`,
    agentId: 'root',
    signal: abort.signal,
    config,
    services,
    async emit(event) {
      opts.onEvent?.(event);
    },
    // Nobody can approve here: a policy file is written only where the user's own rule names it
    // (and never in a read-only context: absent, nothing is written).
    allowsPolicyWrite: opts.readOnly
      ? undefined
      : await (await import('../rules/policy-writes')).userPolicyAllowance(home.configFile),
  };
  return { ctx, dispose: () => store.dispose() };
}
