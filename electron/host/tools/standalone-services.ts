import type { AppConfig } from '../config/schema';
import type { HomePaths } from '../config/paths';
import type { DisposableStore } from '../lifecycle/disposable';
import { ReadState } from './read-state';
import type { ToolServices } from './services';
import { lazyLspService } from '../lsp/lazy-lsp';
import type { ShellService, ShellServiceOptions } from '../shells/shell-service';
import { WorkspaceTrust } from '../trust/workspace-trust';

// The services a tool gets when it runs without a session or a model (`mewbo tool`, `mewbo mcp`).
// Each area adds one factory line; a factory registers anything long-lived with `store`, which
// the caller disposes when the tool run (or the MCP server) ends.

export interface StandaloneEnv {
  root: string;
  config: AppConfig;
  home: HomePaths;
  store: DisposableStore;
  /** Whether read_file deduplicates repeated reads (off for MCP: its client's context is unknown). */
  dedupReads: boolean;
  /** Only read-only tools run (StandaloneOptions.readOnly): services they never use are left out. */
  readOnly: boolean;
  /** What the shells of a session working in a git worktree get of its repository. */
  worktree?: ShellServiceOptions['worktree'];
}

export type ServiceFactory = (
  env: StandaloneEnv,
) => Partial<ToolServices> | Promise<Partial<ToolServices>>;

export const standaloneServiceFactories: ServiceFactory[] = [
  (env) => ({ readState: new ReadState({ dedup: env.dedupReads }) }),
  (env) => {
    // Read-only here: a standalone tool run asks, it never changes what is trusted.
    const trust = new WorkspaceTrust({
      config: {
        config: env.config,
        update: () => Promise.reject(new Error('trust is read-only in a standalone tool run')),
      },
    });
    return {
      lsp: lazyLspService({
        config: () => env.config,
        homeDir: env.home.home,
        store: env.store,
        isTrusted: (root) => trust.isTrusted(root),
      }),
    };
  },
  async (env) => {
    // A read-only run loads no shell code at all (issue #26 part 4). Otherwise the service is
    // built on first use: a run of read_file or list_dir never starts the shell machinery (its
    // temp directory, the launcher lookup, the sandbox probe), issue #18 start-up.
    if (env.readOnly) return {};
    const { ShellService } = await import('../shells/shell-service');
    let shells: ShellService | undefined;
    return {
      get shells() {
        return (shells ??= env.store.add(
          new ShellService({
            paths: env.home,
            config: () => env.config,
            worktree: env.worktree,
          }),
        ));
      },
    };
  },
];
