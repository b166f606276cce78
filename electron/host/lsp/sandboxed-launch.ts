import { rmSync } from 'node:fs';
import type { AppConfig } from '../config/schema';
import { errorPayload } from '../../../shared/tools/payload';
import type { Sandbox } from '../sandbox/sandbox';
import type { ServerSandbox } from './server-registry';

// `agent.server_sandbox`: a language server starts under the same Landlock launcher as the shells,
// with the same deny list (other projects, the app's config and keys, agent.shell_denied_paths).
// The launcher also supervises the server's tree, and ends it if the host dies.

export interface LaunchSandboxOptions {
  sandbox: Sandbox;
  /** The compiled launcher, or null when it was not built. */
  launcher: string | null;
  config: () => AppConfig;
  /** Temp directories the server may write under a project write scope. */
  tempDirs: string[];
}

export function launcherSandbox(opts: LaunchSandboxOptions): ServerSandbox {
  return async (projectRoot, argv) => {
    if (!opts.launcher) {
      return {
        refused: errorPayload(
          'sandbox_unavailable',
          'agent.server_sandbox is on but the sandbox launcher is not built (run `npm run build`, which needs gcc); language servers are not started unconfined',
        ),
      };
    }
    // The shell switch does not govern servers: server_sandbox asked for confinement already.
    const base = opts.config();
    const config = { ...base, agent: { ...base.agent, shell_sandbox: true } };
    const prepared = await opts.sandbox.prepare({
      config,
      root: projectRoot,
      tempDirs: opts.tempDirs,
    });
    if ('refused' in prepared) return prepared;
    const rulesFile = prepared.rulesFile;
    return {
      // Not --merge-stderr: stdout carries the protocol and must stay apart from the server's logs.
      argv: [
        opts.launcher,
        ...prepared.launcherArgs,
        '--host-pid',
        String(process.pid),
        '--',
        ...argv,
      ],
      cleanup: rulesFile ? () => rmSync(rulesFile, { force: true }) : undefined,
    };
  };
}
