import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildScriptedAgent } from '../../helpers/acp-agent-build';
import { tempDir } from '../../helpers/temp';
import { Harness } from '../agent/harness';

// A host whose configs/app.json names the scripted ACP agent (test/fixtures/acp-scripted-agent.ts)
// as `agents.scripted`, and a session bound to it. The script and the agent's record live in a
// folder beside the project (the agent reads the one and appends to the other).

/** How often the agent's record is read while a test waits on it. */
const POLL_MS = 50;

export interface AgentScript {
  loadSession?: boolean;
  image?: boolean;
  embeddedContext?: boolean;
  mcpHttp?: boolean;
  authMethods?: unknown[];
  requireAuth?: boolean | 'prompt';
  modes?: unknown;
  configOptions?: unknown[];
  turns: unknown[][];
}

export interface Recorded {
  method?: string;
  params?: Record<string, unknown>;
  step?: string;
  result?: unknown;
  error?: string;
}

export class AcpWorld {
  private constructor(
    readonly h: Harness,
    readonly dir: string,
  ) {}

  static async start(
    script: AgentScript,
    opts: {
      config?: Record<string, unknown>;
      files?: Record<string, string>;
      /** More of agents.scripted's config (network, pass_env, env). */
      agent?: Record<string, unknown>;
    } = {},
  ) {
    const agentJs = await buildScriptedAgent();
    const side = tempDir('mewbo-acp-agent-');
    const world = { dir: side.dir };
    writeFileSync(
      join(world.dir, 'script.json'),
      JSON.stringify({ record: join(world.dir, 'record.jsonl'), ...script }),
    );
    const h = await Harness.start({
      files: opts.files,
      config: {
        agents: {
          scripted: {
            command: process.execPath,
            args: [agentJs, join(world.dir, 'script.json')],
            ...opts.agent,
          },
        },
        ...opts.config,
      },
    });
    h.cleanups.push(side.cleanup);
    return new AcpWorld(h, world.dir);
  }

  async session(): Promise<string> {
    return (await this.h.invoke('sessions.create', { project: 'proj', agent: 'scripted' })).session
      .id;
  }

  /** What the agent received and the answers it got, in order. */
  record(): Recorded[] {
    const file = join(this.dir, 'record.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Recorded);
  }

  /** Waits until the agent has recorded what `pred` looks for (polled: the record is a file). */
  async recorded(pred: (rec: Recorded[]) => boolean, what: string): Promise<void> {
    for (let waited = 0; !pred(this.record()); waited += POLL_MS) {
      if (waited > 15_000) throw new Error(`timed out waiting for the agent to record ${what}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Sends `text` and waits for the run to settle (idle, stopped or failed). */
  /** `timeoutMs`: a turn that is long by design (a flood of updates) on a loaded machine. */
  async turn(id: string, text: string, timeoutMs?: number) {
    const before = (await this.h.events(id)).length;
    await this.h.invoke('sessions.send', { id, text, capabilities: ['approvals'] });
    return this.settled(id, before, timeoutMs);
  }

  async settled(id: string, from = 0, timeoutMs?: number) {
    const events = await this.h.waitFor(
      id,
      (es) =>
        es.some(
          (e) =>
            e.seq >= from &&
            e.type === 'run_state' &&
            ['idle', 'stopped', 'failed'].includes(e.state),
        ),
      'the run to settle',
      timeoutMs,
    );
    return events.filter((e) => e.seq >= from);
  }

  async close(): Promise<void> {
    await this.h.close();
  }
}
