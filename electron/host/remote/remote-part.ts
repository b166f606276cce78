import type { Readable, Writable } from 'node:stream';
import { errorPayload } from '../../../shared/tools/payload';
import type { SessionEventBody } from '../../../shared/protocol/events';
import { homePaths } from '../config/paths';
import type { AppConfig } from '../config/schema';
import type { Disposable } from '../lifecycle/disposable';
import { moduleDir } from '../lsp/resolve-command';
import { RpcConnection } from '../rpc/connection';
import { HostError } from '../rpc/host-error';
import { Router, type HandlerMapOf } from '../rpc/router';
import { findInstallRoot, findLauncher, noLandlock, probeLandlock } from '../sandbox/launcher';
import { loadBuiltinTool } from '../tools/builtin-tool-loaders';
import { parseToolArgs } from '../tools/parse-args';
import { createStandaloneContext, type StandaloneContext } from '../tools/standalone-context';
import type { ShellService } from '../shells/shell-service';
import { narrowRoot } from '../fs/safe-path';
import { isErrorPayload } from '../../../shared/tools/payload';
import { LateEvents } from './late-events';
import { readChannelFrames, writeLineFrame, writeRecord } from './channel-frames';
import { binaryShellOutput } from '../../web/shell-binary-frame';
import { readPolicyFiles } from './project-policy-files';
import { runHook } from '../hooks/run-hook';
import { folderGitState } from '../projects/git';
import { hookNotRun } from '../hooks/hook-runner';
import { remoteCheckpointHandlers } from './remote-checkpoint-handlers';
import { remoteWorktreeHandlers } from './remote-worktree-handlers';
import { hostWorktreeGrant } from './host-worktree-grant';
import { remoteCommands, type RemoteCommands } from './remote-commands';
import { REMOTE_TOOL_NAMES } from './remote-tools';

// The remote part (issue #29 part 2): the app's tools on the machine that holds the project,
// started by the app over SSH (`mewbo remote-part`) and serving the app's own protocol on its
// stdio (through remote-relay.ts, to the daemon of remote-daemon.ts, which outlives a dropped
// link). It has no model, no keys and no session log: each session's tools get a context of
// their own here (its shells live across calls and across links), built from the remote's own
// $MEWBO_HOME, which the shells' sandbox denies like the app's. Consoles of its background
// shells are the `shell:` topic, what tools emit after their call the `session:` topic
// (remote-commands.ts).

export interface RemotePartOptions {
  version: string;
  env: NodeJS.ProcessEnv;
  /**
   * Paths the app asks the remote's sandbox to deny besides its own: the app's $MEWBO_HOME,
   * should the remote be the same machine or share the home over the network.
   */
  denied: readonly string[];
}

export class RemotePart implements Disposable {
  /** Per session: the tool context whose shells and read state outlive one call. */
  private readonly contexts = new Map<string, Promise<StandaloneContext>>();
  private readonly late = new LateEvents();
  /** Each session's worktree top as its last tool call or hook named it (the app's record). */
  private readonly worktreeTops = new Map<string, string | undefined>();

  constructor(private readonly opts: RemotePartOptions) {}

  /** Serves the protocol on `input`/`output` until `input` ends (or closes). */
  serve(input: Readable, output: Writable): Promise<void> {
    const connection = new RpcConnection(
      this.router(),
      { clientId: 'app', transport: 'local' },
      // A console's output goes as a binary record (channel-frames.ts), everything else as JSON.
      (f, topic) => {
        const record = binaryShellOutput(f, topic);
        if (record) writeRecord(output, record);
        else writeLineFrame(output, f);
      },
    );
    const refuse = (message: string) =>
      writeLineFrame(output, { t: 'error', error: { code: 'bad_json', message } });
    readChannelFrames(input, {
      frame: (frame) => connection.receive(frame),
      record: () => refuse('a binary record: the app sends JSON frames only'),
      bad: refuse,
      // The app never writes such a frame: nothing after it can be read as frames.
      broken: (what) => {
        refuse(what);
        input.destroy();
      },
    });
    return new Promise((resolve) => {
      const end = () => {
        connection.dispose();
        resolve();
      };
      // A socket reset by a dropped relay closes without an orderly end.
      input.once('end', end);
      input.once('close', end);
    });
  }

  private router(): Router {
    const handlers: HandlerMapOf<RemoteCommands> = {
      'remote.hello': async () => {
        const launcher = findLauncher(findInstallRoot(moduleDir()));
        const probe = launcher
          ? await probeLandlock(launcher)
          : noLandlock('the sandbox launcher is missing from the remote bundle');
        return {
          version: this.opts.version,
          landlock_abi: probe.abi,
          landlock_reason: probe.reason,
        };
      },
      'tools.run': async (req) => {
        if (!REMOTE_TOOL_NAMES.has(req.tool))
          throw new HostError('unknown_tool', `'${req.tool}' does not run on the remote`);
        const tool = await loadBuiltinTool(req.tool);
        if (!tool) throw new HostError('unknown_tool', `unknown tool '${req.tool}'`);
        const check = parseToolArgs(tool, req.args);
        if (!check.ok) return { payload: check.error, events: [] };
        this.worktreeTops.set(req.session_id, req.worktree);
        const base = await this.contextFor(req.session_id, req.root);
        const events: SessionEventBody[] = [];
        // Emitted after the call returned (a background shell's exit): the session topic's.
        let returned = false;
        try {
          const payload = await tool.run(
            {
              ...base.ctx,
              root: narrowRoot(req.root),
              sessionId: req.session_id,
              agentId: req.agent_id,
              callId: req.call_id,
              emit: async (event) =>
                void (returned ? this.late.push(req.session_id, event) : events.push(event)),
            },
            check.args,
          );
          returned = true;
          return { payload, events };
        } catch (err) {
          returned = true;
          return {
            payload: errorPayload('tool_failed', `${req.tool} failed: ${(err as Error).message}`),
            events,
          };
        }
      },
      ...remoteCheckpointHandlers(homePaths(this.opts.env).checkpointsDir),
      ...remoteWorktreeHandlers(homePaths(this.opts.env)),
      'shells.list': async (req) => ({
        shells: (await this.shellsOf(req.session_id))?.list(req.session_id) ?? [],
      }),
      'shells.input': async (req) => {
        const manager = await this.managerOf(req.session_id, req.shell_id);
        if (!manager.input(req.shell_id, req.data))
          throw new HostError(
            'shell_exited',
            `shell ${req.shell_id} has exited; input is refused, not discarded`,
          );
        return { ok: true as const };
      },
      'shells.resize': async (req) => {
        if (req.shell_id === undefined) {
          (await this.shellsOf(req.session_id))
            ?.forSession(req.session_id)
            .fitted(req.cols, req.rows);
          return { ok: true as const };
        }
        const manager = await this.managerOf(req.session_id, req.shell_id);
        manager.fitted(req.cols, req.rows, req.shell_id);
        return { ok: true as const };
      },
      'shells.kill': async (req) => {
        const manager = await this.managerOf(req.session_id, req.shell_id);
        const result = await manager.kill(req.shell_id);
        if (isErrorPayload(result)) throw new HostError(result.code, result.message);
        return { status: result.status };
      },
      'lsp.diagnosticsAfterEdit': async (req) => {
        const { ctx } = await this.contextFor(req.session_id, req.root);
        const note = await ctx.services.lsp?.diagnosticsAfterEdit(ctx.root, req.files);
        return { note: note ?? null };
      },
      'project.policyFiles': async (req) => ({
        files: await readPolicyFiles(narrowRoot(req.root)),
      }),
      'git.state': async (req) => ({ git: await folderGitState(narrowRoot(req.root)) }),
      'hooks.run': async (req) => {
        this.worktreeTops.set(req.session_id, req.worktree);
        const { ctx } = await this.contextFor(req.session_id, req.root);
        const root = narrowRoot(req.root);
        const env = {
          ...this.opts.env,
          CLAUDE_PROJECT_DIR: root,
          MEWBO_PROJECT_DIR: root,
          MEWBO_SESSION_ID: req.session_id,
        };
        const start = await (ctx.services.shells as ShellService).confine(
          req.session_id,
          root,
          ['/bin/sh', '-c', req.command],
          env,
        );
        if ('refused' in start) return hookNotRun(start.refused.message);
        return runHook({
          command: req.command,
          ...start,
          cwd: root,
          input: req.input,
          timeoutMs: req.timeout_ms,
        });
      },
    };
    return Router.forCommands(remoteCommands, handlers, {
      shell: async (rest, cursor, sink) => {
        const colon = rest.indexOf(':');
        const sessionId = rest.slice(0, colon);
        const shellId = rest.slice(colon + 1);
        const sub =
          colon === -1
            ? null
            : (await this.shellsOf(sessionId))?.subscribe(sessionId, shellId, cursor, sink);
        if (!sub) throw new HostError('not_found', `no shell '${shellId}' in session ${sessionId}`);
        return sub;
      },
      session: async (sessionId, _cursor, sink) => this.late.subscribe(sessionId, sink),
    });
  }

  /** The session's shells here, or null when no tool of it has run on this remote part. */
  private async shellsOf(sessionId: string): Promise<ShellService | null> {
    const context = await this.contexts.get(sessionId)?.catch(() => null);
    return (context?.ctx.services.shells as ShellService | undefined) ?? null;
  }

  /** The manager holding background shell `shellId` of the session, or a not_found error. */
  private async managerOf(sessionId: string, shellId: string) {
    const manager = (await this.shellsOf(sessionId))?.forSession(sessionId);
    if (!manager?.get(shellId)?.background)
      throw new HostError('not_found', `no background shell '${shellId}' in session ${sessionId}`);
    return manager;
  }

  private contextFor(sessionId: string, root: string): Promise<StandaloneContext> {
    // One context per session (its root is a call's own): its shells are listed in one place.
    const key = sessionId;
    let context = this.contexts.get(key);
    if (!context) {
      context = createStandaloneContext({
        root,
        env: this.opts.env,
        configure: (config) => withDeniedPaths(config, this.opts.denied),
        // Only for a session the app says works in a worktree, and only inside that one; the
        // grant's paths are worked out on this host from the spawn's folder.
        worktree: (sessionId, root) => {
          const top = this.worktreeTops.get(sessionId);
          return top === undefined ? undefined : hostWorktreeGrant(root, top);
        },
      });
      this.contexts.set(key, context);
      // A root that cannot be opened is asked again next time, not remembered as broken.
      context.catch(() => this.contexts.delete(key));
    }
    return context;
  }

  async dispose(): Promise<void> {
    const contexts = [...this.contexts.values()];
    this.contexts.clear();
    await Promise.all(
      contexts.map((c) =>
        c.then(
          (s) => s.dispose(),
          () => undefined,
        ),
      ),
    );
  }
}

/** `config` whose shells are also denied `denied` (the app's paths on this machine). */
export function withDeniedPaths(config: AppConfig, denied: readonly string[]): AppConfig {
  return {
    ...config,
    agent: {
      ...config.agent,
      shell_denied_paths: [...config.agent.shell_denied_paths, ...denied],
    },
  };
}
