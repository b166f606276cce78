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
import { readLineFrames, writeLineFrame } from './line-frames';
import { remoteCheckpointHandlers } from './remote-checkpoint-handlers';
import { remoteCommands, type RemoteCommands } from './remote-commands';
import { REMOTE_TOOL_NAMES } from './remote-tools';

// The remote part (issue #29 part 2): the app's tools on the machine that holds the project,
// started by the app over SSH (`mewbo remote-part`) and serving the app's own protocol on its
// stdio. It has no model, no keys and no session log: each session's tools get a context of
// their own here (its shells live across calls), built from the remote's own $MEWBO_HOME, which
// the shells' sandbox denies like the app's.

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
  /** Per session and root: the tool context whose shells and read state outlive one call. */
  private readonly contexts = new Map<string, Promise<StandaloneContext>>();

  constructor(private readonly opts: RemotePartOptions) {}

  /** Serves the protocol on `input`/`output` until `input` ends. */
  serve(input: Readable, output: Writable): Promise<void> {
    const connection = new RpcConnection(
      this.router(),
      { clientId: 'app', transport: 'local' },
      (f) => writeLineFrame(output, f),
    );
    readLineFrames(
      input,
      (frame) => connection.receive(frame),
      (line) =>
        writeLineFrame(output, {
          t: 'error',
          error: { code: 'bad_json', message: `not a JSON frame: ${line.slice(0, 80)}` },
        }),
    );
    return new Promise((resolve) =>
      input.once('end', () => {
        connection.dispose();
        resolve();
      }),
    );
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
        const base = await this.contextFor(req.session_id, req.root);
        const events: SessionEventBody[] = [];
        try {
          const payload = await tool.run(
            {
              ...base.ctx,
              sessionId: req.session_id,
              agentId: req.agent_id,
              callId: req.call_id,
              emit: async (event) => void events.push(event),
            },
            check.args,
          );
          return { payload, events };
        } catch (err) {
          return {
            payload: errorPayload('tool_failed', `${req.tool} failed: ${(err as Error).message}`),
            events,
          };
        }
      },
      ...remoteCheckpointHandlers(homePaths(this.opts.env).checkpointsDir),
    };
    return Router.forCommands(remoteCommands, handlers, {});
  }

  private contextFor(sessionId: string, root: string): Promise<StandaloneContext> {
    const key = `${sessionId}\0${root}`;
    let context = this.contexts.get(key);
    if (!context) {
      context = createStandaloneContext({
        root,
        env: this.opts.env,
        configure: (config) => this.withDenied(config),
      });
      this.contexts.set(key, context);
      // A root that cannot be opened is asked again next time, not remembered as broken.
      context.catch(() => this.contexts.delete(key));
    }
    return context;
  }

  private withDenied(config: AppConfig): AppConfig {
    return {
      ...config,
      agent: {
        ...config.agent,
        shell_denied_paths: [...config.agent.shell_denied_paths, ...this.opts.denied],
      },
    };
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
