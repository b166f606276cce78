import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeAnthropic } from './fake-anthropic';
import { runMewbo, type CliResult } from './mewbo-cli';
import { startSshd, type Sshd, type SshdOptions } from './sshd';
import { tempDir } from './temp';

// `mewbo` against a project on a real sshd (issue #29): the server, the scripted model, and a
// desktop $MEWBO_HOME whose config points ssh at the server. The session lives here, its tools
// run on the host.

export interface RemoteRun {
  sshd: Sshd;
  fake: FakeAnthropic;
  /** The desktop's $MEWBO_HOME. */
  home: string;
  /** ssh://ALIAS/path of a folder under the remote home. */
  urlOf(remotePath: string): string;
  /** The built CLI with this home and model. */
  mewbo(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** `mewbo run --project URL --permission-mode auto [...flags] PROMPT` on a remote folder. */
  runOn(remotePath: string, prompt: string, flags?: string[]): Promise<CliResult>;
  stop(): Promise<void>;
}

/** A `mewbo run` or `sessions` command on the host takes connect, install and the turns. */
const REMOTE_CLI_TIMEOUT_MS = 60_000;

/** A scripted model turn that edits `file` on the host, replacing `search` by `replace`. */
export function editBlockTurn(file: string, search: string, replace: string) {
  return {
    toolCalls: [
      {
        name: 'aider_edit_block_tool',
        args: {
          content: `${file}\n\`\`\`\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`,
        },
      },
    ],
  };
}

export async function startRemoteRun(
  opts: SshdOptions & { config?: Record<string, unknown> } = {},
): Promise<RemoteRun> {
  const sshd = await startSshd(opts);
  const fake = await FakeAnthropic.start();
  const home = tempDir('mewbo-remote-run-home-');
  mkdirSync(join(home.dir, 'configs'), { recursive: true });
  writeFileSync(
    join(home.dir, 'configs', 'app.json'),
    JSON.stringify({ ...opts.config, remote: { ssh_config: sshd.clientConfig } }),
  );
  const urlOf = (remotePath: string) => `ssh://${sshd.alias}${remotePath}`;
  const mewbo = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
    runMewbo(args, {
      env: {
        MEWBO_HOME: home.dir,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.url,
        ...extraEnv,
      },
      timeoutMs: REMOTE_CLI_TIMEOUT_MS,
    });
  return {
    sshd,
    fake,
    home: home.dir,
    urlOf,
    mewbo,
    runOn: (remotePath, prompt, flags = []) =>
      mewbo(['run', '--project', urlOf(remotePath), '--permission-mode', 'auto', ...flags, prompt]),
    async stop() {
      await fake.close();
      await sshd.stop();
      home.cleanup();
    },
  };
}
