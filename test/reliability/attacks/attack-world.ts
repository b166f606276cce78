import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseConfig } from '../../../electron/host/config/load-config';
import { homePaths, type HomePaths } from '../../../electron/host/config/paths';
import type { AppConfig } from '../../../electron/host/config/schema';
import {
  findInstallRoot,
  findLauncher,
  probeLandlock,
} from '../../../electron/host/sandbox/launcher';
import type { NetworkGrant } from '../../../electron/host/sandbox/sandbox';
import { ShellService } from '../../../electron/host/shells/shell-service';
import type { ShellNetwork } from '../../../electron/host/shells/shell-network';
import {
  NetworkService,
  type NetworkServiceOptions,
} from '../../../electron/host/network/network-service';
import type { ShellManager } from '../../../electron/host/shells/shell-manager';
import { tempDir } from '../../helpers/temp';

// The world every attack test starts from: the session's project, another configured project
// holding a secret, a temp $MEWBO_HOME holding a config key, and the real shell service (real
// launcher, real Landlock) confining the project's shells.

export const installRoot = findInstallRoot(process.cwd());
export const launcher = findLauncher(installRoot);
const probed = launcher ? await probeLandlock(launcher) : null;
export const abi = probed?.abi ?? 0;
/** Why the launcher cannot confine the network here, or null when it can. */
export const networkGap = probed ? probed.networkGap : 'no launcher';

export interface AttackWorld {
  base: string;
  root: string;
  other: string;
  secret: string;
  key: string;
  paths: HomePaths;
  config: AppConfig;
  service: ShellService;
  shells: ShellManager;
  /** Runs a confined foreground command in the project; its merged output. */
  run(
    command: string,
    opts?: { tty?: boolean; env?: NodeJS.ProcessEnv; timeoutMs?: number },
  ): Promise<string>;
  dispose(): Promise<void>;
}

/** A network of fixed ports and no proxy: what the launcher's own tests give. */
function fixedNetwork(grant: NetworkGrant): ShellNetwork {
  return {
    statusGrant: () => grant,
    forSession: () => ({ forSpawn: async () => ({ grant, env: {} }), dispose() {} }),
  };
}

/**
 * `network`: fixed ports (the launcher's tests); absent, each session's egress proxy as in the
 * app, with `config` (top-level keys of configs/app.json, `sandbox` say) for its policy and
 * `egress` for what tests replace (the resolver, the address kinds, the session's policy, asking).
 */
export function attackWorld(
  agent: Record<string, unknown> = {},
  opts: {
    env?: NodeJS.ProcessEnv;
    network?: NetworkGrant;
    config?: Record<string, unknown>;
    egress?: Partial<NetworkServiceOptions>;
  } = {},
): AttackWorld {
  const t = tempDir('mewbo-attack-');
  const base = realpathSync(t.dir);
  const root = join(base, 'project');
  const other = join(base, 'other');
  const paths = homePaths({ MEWBO_HOME: join(base, 'home') });
  for (const d of [root, other, paths.configDir, paths.sessionsDir, paths.stateDir])
    mkdirSync(d, { recursive: true });
  const secret = `OTHER-SECRET-${randomBytes(6).toString('hex')}`;
  const key = `sk-CONFIG-KEY-${randomBytes(6).toString('hex')}`;
  writeFileSync(join(other, 'secret.txt'), `${secret}\n`);
  writeFileSync(paths.configFile, JSON.stringify({ providers: { anthropic: { api_key: key } } }));
  writeFileSync(join(root, 'mine.txt'), 'mine\n');
  const config = parseConfig({
    projects: { project: { path: root }, other: { path: other } },
    agent,
    ...opts.config,
  });
  const service = new ShellService({
    paths,
    config: () => config,
    log: () => {},
    env: opts.env,
    network: opts.network
      ? fixedNetwork(opts.network)
      : new NetworkService({ config: () => config, configFile: paths.configFile, ...opts.egress }),
  });
  const shells = service.forSession('s_attack01');
  return {
    base,
    root,
    other,
    secret,
    key,
    paths,
    config,
    service,
    shells,
    async run(command, o = {}) {
      const r = await shells.run({
        command,
        cwd: root,
        root,
        config,
        tty: o.tty ?? false,
        timeoutMs: o.timeoutMs ?? 30_000,
      });
      if ('kind' in r) throw new Error(`spawn refused: ${r.message}`);
      return r.result.text;
    },
    async dispose() {
      await service.dispose();
      t.cleanup();
    },
  };
}

/** Polls until `file` exists with content (bounded, so a broken attack fails instead of hanging). */
export async function waitForFile(file: string, ms = 15_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const text = readFileSync(file, 'utf8');
      if (text) return text;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${file}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
