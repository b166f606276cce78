import { RequestError } from '@agentclientprotocol/sdk';
import type * as acp from '@agentclientprotocol/sdk';
import type { SessionEventBody } from '../../../../shared/protocol/events';
import type { AppConfig } from '../../config/schema';
import type { Disposable } from '../../lifecycle/disposable';
import { PathValidationError, resolveInsideRoot } from '../../fs/safe-path';
import type { ShellService } from '../../shells/shell-service';
import type { ShellSession } from '../../shells/shell-session';
import { shellTool } from '../../tools/shell';
import type { ClientJudge } from './client-judge';
import { TERMINAL_OUTPUT_BYTES } from './constants';

// The client's `terminal/*` for an external agent (issue 30 part 3): each terminal is one of the
// session's own sandboxed shells (the shells' launcher, deny list, write scope, egress proxy and
// scrubbed environment), started in the background so it shows as a live console in the dock,
// and killed when released or when the agent's connection ends. Before it starts, the command
// line it runs is judged as the app's aider_shell_tool call (client-judge.ts): Bash(...) rules
// read by bash's grammar, the mode, the approval card, the headless refusal.
//
// `command` is a shell line and `args` are words appended to it, quoted: agents send either a
// whole line with no args (Claude Code's `npm test | head`) or a program and its arguments, and
// Zed, the reference client, runs both through the shell the same way.

export interface ClientTerminalsDeps {
  shells: ShellService;
  sessionId: string;
  root: string;
  config: () => AppConfig;
  judge: ClientJudge;
  append(event: SessionEventBody): Promise<void>;
}

/** A word as bash reads it literally. */
const quote = (word: string) =>
  /^[A-Za-z0-9_./=:@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

interface Terminal {
  shell: ShellSession;
  limit: number;
  /** Released by the agent: its id is no longer valid, but its card still shows what it printed. */
  released: boolean;
}

export class ClientTerminals implements Disposable {
  private readonly terminals = new Map<string, Terminal>();

  constructor(private readonly deps: ClientTerminalsDeps) {}

  async create(req: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    let cwd = this.deps.root;
    if (req.cwd) {
      try {
        cwd = resolveInsideRoot(this.deps.root, req.cwd, { label: 'cwd' });
      } catch (err) {
        if (err instanceof PathValidationError)
          throw RequestError.invalidParams({ cwd: req.cwd }, err.message);
        throw err;
      }
    }
    const env = (req.env ?? []).map((v) => quote(`${v.name}=${v.value}`));
    const command = [...(env.length ? ['env', ...env] : []), req.command]
      .concat((req.args ?? []).map(quote))
      .join(' ');
    const allowed = await this.deps.judge({
      tool: shellTool,
      args: { command, cwd, run_in_background: true },
      covers: (g) => g.command === req.command || g.command === command,
    });
    const manager = this.deps.shells.forSession(this.deps.sessionId);
    const shell = await manager.start({
      command,
      cwd,
      root: this.deps.root,
      config: this.deps.config(),
      tty: false,
    });
    if ('kind' in shell) throw RequestError.invalidParams({ command: req.command }, shell.message);
    this.terminals.set(shell.id, {
      shell,
      limit: req.outputByteLimit ?? TERMINAL_OUTPUT_BYTES,
      released: false,
    });
    await this.deps.append({
      type: 'shell_started',
      shell_id: shell.id,
      command: shell.command,
      cwd: shell.cwd,
    });
    void shell.whenExited.then((info) =>
      this.deps
        .append({
          type: 'shell_exited',
          shell_id: info.shell_id,
          exit_code: info.exit_code,
          signal: info.signal,
        })
        .catch(() => {}),
    );
    await allowed.after({
      kind: 'shell',
      command: shell.command,
      cwd: shell.cwd,
      shell_id: shell.id,
      status: shell.status,
    });
    return { terminalId: shell.id };
  }

  private get(id: string): Terminal {
    const t = this.terminals.get(id);
    if (!t || t.released) throw RequestError.resourceNotFound(`terminal ${id}`);
    return t;
  }

  output(id: string): acp.TerminalOutputResponse {
    const { shell, limit } = this.get(id);
    const all = shell.buffer.read().text;
    const bytes = Buffer.from(all);
    const truncated = bytes.length > limit;
    const output = truncated
      ? bytes
          .subarray(bytes.length - limit)
          .toString('utf8')
          .replace(/^\uFFFD+/, '')
      : all;
    const info = shell.info();
    return {
      output,
      truncated,
      ...(info.status !== 'running'
        ? { exitStatus: { exitCode: info.exit_code, signal: info.signal } }
        : {}),
    };
  }

  async waitForExit(id: string, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse> {
    const { shell } = this.get(id);
    const info = await new Promise<Awaited<typeof shell.whenExited>>((resolve, reject) => {
      if (signal.aborted) return reject(RequestError.requestCancelled());
      signal.addEventListener('abort', () => reject(RequestError.requestCancelled()), {
        once: true,
      });
      void shell.whenExited.then(resolve);
    });
    return { exitCode: info.exit_code, signal: info.signal };
  }

  async kill(id: string): Promise<void> {
    const { shell } = this.get(id);
    await shell.terminate('kill', this.deps.config().shells.kill_grace_ms);
  }

  async release(id: string): Promise<void> {
    const t = this.terminals.get(id);
    if (!t || t.released) return;
    t.released = true;
    await t.shell.terminate('kill', this.deps.config().shells.kill_grace_ms);
  }

  /** What a tool card shows of terminal `id` (its console, its output, how it ended). */
  describe(id: string) {
    const t = this.terminals.get(id);
    if (!t) return undefined;
    const info = t.shell.info();
    return {
      shellId: t.shell.id,
      command: t.shell.command,
      output: t.shell.buffer.read().text,
      exitCode: info.exit_code,
    };
  }

  async dispose(): Promise<void> {
    const all = [...this.terminals.keys()];
    await Promise.all(all.map((id) => this.release(id)));
  }
}
