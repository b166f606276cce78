import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type ClientConnection,
  type ClientContext,
  type InitializeResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { MEWBO_CLI } from './mewbo-cli';

// `mewbo acp` as an editor runs it: the built CLI in its own process, driven over its stdio by the
// ACP SDK's own client. The test answers permission requests (and, when it offers them, the
// client's fs and terminal methods) and reads every session/update the agent sent.

export interface AcpClientHandlers {
  /** Answers session/request_permission; default: the first option. */
  permission?: (
    req: RequestPermissionRequest,
  ) => Promise<RequestPermissionResponse> | RequestPermissionResponse;
  /** Extra client methods (fs, terminal) the test serves, registered as given. */
  register?: (app: ReturnType<typeof client>) => void;
}

export class AcpAgentProcess {
  readonly updates: { sessionId: string; update: SessionUpdate }[] = [];
  readonly permissions: RequestPermissionRequest[] = [];
  /** The agent's answer to `initialize`. */
  initialized!: InitializeResponse;
  stderr = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: ClientConnection,
  ) {
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    child.stderr.on('data', (d) => (this.stderr += d));
  }

  static async start(
    env: NodeJS.ProcessEnv,
    handlers: AcpClientHandlers = {},
    capabilities: ClientCapabilities = {},
  ): Promise<{ proc: AcpAgentProcess; agent: ClientContext }> {
    const child = spawn(process.execPath, [MEWBO_CLI, 'acp'], {
      env: { PATH: process.env.PATH, OLLAMA_BASE_URL: 'http://127.0.0.1:9', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const box: { proc?: AcpAgentProcess } = {};
    const app = client({ name: 'test-editor' })
      .onNotification(methods.client.session.update, ({ params }) => {
        box.proc!.updates.push({ sessionId: params.sessionId, update: params.update });
      })
      .onRequest(methods.client.session.requestPermission, async ({ params }) => {
        box.proc!.permissions.push(params);
        if (handlers.permission) return handlers.permission(params);
        return { outcome: { outcome: 'selected', optionId: params.options[0]!.optionId } };
      });
    handlers.register?.(app);
    const connection = app.connect(
      ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
    box.proc = new AcpAgentProcess(child, connection);
    box.proc.initialized = await connection.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: capabilities,
    });
    return { proc: box.proc, agent: connection.agent };
  }

  /** Updates of one kind sent so far, in order. */
  of<K extends SessionUpdate['sessionUpdate']>(
    kind: K,
  ): Extract<SessionUpdate, { sessionUpdate: K }>[] {
    return this.updates
      .map((u) => u.update)
      .filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
  }

  /** Waits (bounded) until an update satisfies `pred`. */
  async until(pred: (u: SessionUpdate) => boolean, timeoutMs = 15_000): Promise<SessionUpdate> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.updates.find((u) => pred(u.update));
      if (hit) return hit.update;
      if (Date.now() > deadline) throw new Error(`no such update; stderr: ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Closes stdin (the editor went away) and waits for the process to exit on its own. */
  async close(): Promise<number | null> {
    this.connection.close();
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
