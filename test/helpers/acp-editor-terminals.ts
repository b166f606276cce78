import { spawn, type ChildProcess } from 'node:child_process';
import { methods } from '@agentclientprotocol/sdk';
import type { AcpClientHandlers } from './acp-agent-process';

// An editor's terminal/* as Zed serves it, for `mewbo acp`'s tests: terminal/create really starts
// the program it is given (with the editor's own environment plus the request's), its merged
// output kept to the request's byte limit (the tail), wait_for_exit, kill, release.

interface Terminal {
  child: ChildProcess;
  output: string;
  truncated: boolean;
  limit: number;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  exitStatus?: { exitCode: number | null; signal: string | null };
}

export interface CreatedTerminal {
  terminalId: string;
  command: string;
  args: string[];
  cwd?: string | null;
}

export class EditorTerminals {
  readonly created: CreatedTerminal[] = [];
  readonly killed: string[] = [];
  readonly released: string[] = [];
  private readonly terminals = new Map<string, Terminal>();
  private readonly exits = new Map<string, Terminal['exit']>();

  /**
   * `env`: the editor's own environment, which its terminals inherit. `ignoreKill`: an editor
   * that answers terminal/kill and leaves the process running.
   */
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly opts: { ignoreKill?: boolean } = {},
  ) {}

  readonly handlers: AcpClientHandlers = {
    register: (app) =>
      app
        .onRequest(methods.client.terminal.create, ({ params }) => {
          const terminalId = `term-${this.created.length + 1}`;
          const env = { ...this.env };
          for (const v of params.env ?? []) env[v.name] = v.value;
          const child = spawn(params.command, params.args ?? [], {
            cwd: params.cwd ?? undefined,
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          const t: Terminal = {
            child,
            output: '',
            truncated: false,
            limit: params.outputByteLimit ?? 1_000_000,
            exit: new Promise((done) =>
              child.once('close', (exitCode, signal) => done({ exitCode, signal })),
            ),
          };
          void t.exit.then((s) => (t.exitStatus = s));
          this.exits.set(terminalId, t.exit);
          const take = (d: Buffer) => {
            t.output += d.toString();
            if (Buffer.byteLength(t.output) > t.limit) {
              t.output = t.output.slice(-t.limit);
              t.truncated = true;
            }
          };
          child.stdout!.on('data', take);
          child.stderr!.on('data', take);
          this.terminals.set(terminalId, t);
          this.created.push({
            terminalId,
            command: params.command,
            args: params.args ?? [],
            cwd: params.cwd ?? null,
          });
          return { terminalId };
        })
        .onRequest(methods.client.terminal.output, ({ params }) => {
          const t = this.get(params.terminalId);
          return {
            output: t.output,
            truncated: t.truncated,
            ...(t.exitStatus ? { exitStatus: t.exitStatus } : {}),
          };
        })
        .onRequest(
          methods.client.terminal.waitForExit,
          ({ params }) => this.get(params.terminalId).exit,
        )
        .onRequest(methods.client.terminal.kill, ({ params }) => {
          this.killed.push(params.terminalId);
          if (!this.opts.ignoreKill) this.get(params.terminalId).child.kill('SIGTERM');
          return {};
        })
        .onRequest(methods.client.terminal.release, ({ params }) => {
          this.released.push(params.terminalId);
          this.get(params.terminalId).child.kill('SIGTERM');
          this.terminals.delete(params.terminalId);
          return {};
        }),
  };

  /** The terminal's exit, for a test that waits on it. */
  exited(terminalId: string): Terminal['exit'] {
    const exit = this.exits.get(terminalId);
    if (!exit) throw new Error(`no terminal ${terminalId}`);
    return exit;
  }

  private get(id: string): Terminal {
    const t = this.terminals.get(id);
    if (!t) throw new Error(`no terminal ${id}`);
    return t;
  }

  /** Kills what is still running (after a test). */
  dispose(): void {
    for (const t of this.terminals.values()) t.child.kill('SIGKILL');
    this.terminals.clear();
  }
}
