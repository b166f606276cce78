import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream, type Stream } from '@agentclientprotocol/sdk';
import type { ExternalAgentConfig } from '../../config/schema';
import type { Disposable } from '../../lifecycle/disposable';
import { resolveExecutable } from '../../lsp/resolve-command';
import type { LauncherSandbox } from '../../lsp/sandboxed-launch';
import { withProxyEnv } from '../../network/proxy-env';
import { BASE_ENV, KILL_GRACE_MS, MAX_MESSAGE_BYTES, STDERR_TAIL_LINES } from './constants';

// One external ACP agent's process (issue 30): started under the Landlock launcher like a
// project's MCP server (the shells' deny list, writes only in the session's root, the network
// only through its own egress proxy, which lets through `agents.NAME.network`), with only the
// environment its config names. Its stdout carries JSON-RPC (ACP), its stderr is kept for the
// reason it failed. Killing it ends the launcher's whole tree.

/** Starts an agent's argv confined to a root, its network by its spec (LauncherSandbox.wrap). */
export type AgentSandbox = LauncherSandbox['wrap'];

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The environment an agent starts with: the base variables, `pass_env` from the app's, then `env`. */
export function agentEnv(
  agent: ExternalAgentConfig,
  appEnv: NodeJS.ProcessEnv,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...agent.pass_env]) {
    const value = appEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...agent.env };
}

export class AgentProcess implements Disposable {
  private readonly stderrLines: string[] = [];
  readonly exited: Promise<AgentExit>;
  readonly stream: Stream;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': by then its stderr has been read to the end (the reason is there).
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    let partial = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!.slice(-1000);
      for (const line of lines) if (line.trim()) this.stderrLines.push(line.slice(0, 1000));
      this.stderrLines.splice(0, Math.max(0, this.stderrLines.length - STDERR_TAIL_LINES));
    });
    child.stdin!.on('error', () => {});
    child.stdout!.on('error', () => {});
    this.stream = ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
      { maxMessageBytes: MAX_MESSAGE_BYTES },
    );
  }

  /**
   * Starts agent `name` for a session working in `root`; a refusal (no launcher, a command not
   * found) says why and what to do, and nothing is started.
   */
  static async start(opts: {
    name: string;
    agent: ExternalAgentConfig;
    root: string;
    appEnv: NodeJS.ProcessEnv;
    sandbox: AgentSandbox;
  }): Promise<AgentProcess | { error: string }> {
    const env = agentEnv(opts.agent, opts.appEnv);
    const command = resolveExecutable(opts.agent.command, opts.root, {
      before: [],
      after: [],
      path: env.PATH ?? '',
    });
    if (!command)
      return {
        error: `agent '${opts.name}': its command '${opts.agent.command}' was not found on PATH; install it or fix agents.${opts.name}.command in configs/app.json`,
      };
    const launch = await opts.sandbox(opts.root, [command, ...opts.agent.args], {
      key: `acp:${opts.name}`,
      setting: `agents.${opts.name}.network`,
      allow: opts.agent.network,
    });
    if ('refused' in launch)
      return { error: `agent '${opts.name}' was not started: ${launch.refused.message}` };
    const [program, ...args] = launch.argv;
    const child = spawn(program!, args, {
      cwd: opts.root,
      env: withProxyEnv(env, launch.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (launch.stdinPrefix) child.stdin!.write(launch.stdinPrefix);
    return new AgentProcess(child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last lines the agent wrote to stderr, for the error that says why it ended. */
  stderrTail(): string {
    return this.stderrLines.join('\n');
  }

  async dispose(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), KILL_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}
