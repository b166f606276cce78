import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { HomePaths } from '../config/paths';
import { isInside } from '../fs/safe-path';
import { moduleDir } from '../lsp/resolve-command';
import { HostError } from '../rpc/host-error';
import { findInstallRoot } from '../sandbox/launcher';
import { realPathLoose } from '../sandbox/real-path';

// The one check of where a session may act. A session's root is read from its meta.json, which an
// imported log, a restored backup or a hand edit can set to anything; the file tools reach all of a
// root without asking, so a root of `/`, of the user's home or of the app's own folder would hand
// the agent the app's keys (configs/secrets.json) with no approval. Every place that starts a run,
// a hook or a shell in a session's root asks here first (AgentService.send and each step's root,
// `mewbo run --resume`, `mewbo sessions import --project`).

export interface RootLimits {
  /** $MEWBO_HOME: configs and keys, sessions, state. */
  appHome: string;
  /** The app's install (its code); null when unknown. */
  installRoot: string | null;
  /** The user's home directory. */
  userHome: string;
}

/** The limits of this process: its $MEWBO_HOME, its install, the user's home. */
export function rootLimitsOf(paths: HomePaths, env: NodeJS.ProcessEnv): RootLimits {
  return {
    appHome: paths.home,
    installRoot: findInstallRoot(moduleDir()),
    userHome: env.HOME || homedir(),
  };
}

/** Directories that hold every user's home, and root's own. */
const HOMES_PARENT = '/home';
const ROOT_HOME = '/root';

/** Why `root` may not be a session's root, or null when it may. Compared by real path. */
export function rootRefusal(root: string, limits: RootLimits): string | null {
  const real = realPathLoose(root);
  if (real === '/') return 'it is the whole file system (/)';
  const app = realPathLoose(limits.appHome);
  if (isInside(app, real)) return `it is the app's own folder ${app} ($MEWBO_HOME) or inside it`;
  if (isInside(real, app)) return `it holds the app's own folder ${app} ($MEWBO_HOME, its keys)`;
  if (limits.installRoot) {
    const install = realPathLoose(limits.installRoot);
    if (isInside(install, real) || isInside(real, install))
      return `it is, holds or lies inside the app's install ${install}`;
  }
  if (
    real === realPathLoose(limits.userHome) ||
    real === HOMES_PARENT ||
    real === ROOT_HOME ||
    dirname(real) === HOMES_PARENT
  )
    return 'it is a home directory itself (open a project folder inside it instead)';
  return null;
}

export class ForbiddenRootError extends HostError {
  override name = 'ForbiddenRootError';
  constructor(
    readonly root: string,
    reason: string,
  ) {
    super(
      'forbidden_root',
      `${root} cannot be a session's project root: ${reason}. Nothing was run; move the session to a project folder first`,
    );
  }
}

/** Throws ForbiddenRootError when the session's root may not be acted in; null roots may. */
export function checkSessionRoot(root: string | null, limits: RootLimits): void {
  if (root === null) return;
  const why = rootRefusal(root, limits);
  if (why) throw new ForbiddenRootError(root, why);
}
