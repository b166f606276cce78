import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import type { ClientContext } from '../../../electron/host/rpc/router';
import type { SessionEvent } from '../../../shared/protocol/events';
import type { CommandName, RequestOf, ResponseOf } from '../../../shared/protocol/commands';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { FakeOllama, type FakeOllamaOptions } from '../../helpers/fake-ollama';
import { FakeOpenAi } from '../../helpers/fake-openai';
import type { ModelScript } from '../../helpers/fake-model-script';
import { tempDir } from '../../helpers/temp';

// A host on a temp $MEWBO_HOME with one project, its model served by a fake provider server, driven
// through the protocol (router.invoke / subscribe) as a client would.

export type Wire = 'anthropic' | 'openai' | 'ollama';

export interface HarnessOptions {
  wire?: Wire;
  config?: Record<string, unknown>;
  files?: Record<string, string>;
  maxPromptChars?: number;
  /** Anthropic only: model the prompt cache (usage from it) with this minimum entry size. */
  cache?: { minTokens?: number };
  /** Ollama only: the models the fake serves. */
  ollama?: FakeOllamaOptions;
}

const CLIENT: ClientContext = { clientId: 'test', transport: 'local' };

export class Harness {
  host!: Host;
  readonly cleanups: (() => void | Promise<void>)[] = [];

  private constructor(
    readonly home: string,
    readonly project: string,
    readonly env: NodeJS.ProcessEnv,
    readonly fake: FakeAnthropic | FakeOpenAi | FakeOllama,
  ) {}

  static async start(opts: HarnessOptions = {}): Promise<Harness> {
    const wire = opts.wire ?? 'anthropic';
    const home = tempDir('mewbo-agent-home-');
    const project = tempDir('mewbo-agent-proj-');
    for (const [name, text] of Object.entries(opts.files ?? {})) {
      mkdirSync(join(project.dir, name, '..'), { recursive: true });
      writeFileSync(join(project.dir, name), text);
    }
    const fake =
      wire === 'anthropic'
        ? await FakeAnthropic.start({ maxPromptChars: opts.maxPromptChars, cache: opts.cache })
        : wire === 'ollama'
          ? await FakeOllama.start(opts.ollama)
          : await FakeOpenAi.start({ apiKey: 'sk-test', maxPromptChars: opts.maxPromptChars });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home.dir,
      MEWBO_HOME: home.dir,
      ...(wire === 'anthropic'
        ? { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url }
        : wire === 'ollama'
          ? // A /v1 left over from the OpenAI-compatible endpoint is ignored.
            { OLLAMA_BASE_URL: `${fake.url}/v1` }
          : { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: (fake as FakeOpenAi).baseUrl }),
    };
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    const config = { projects: { proj: { path: project.dir } }, ...opts.config };
    writeFileSync(join(home.dir, 'configs', 'app.json'), JSON.stringify(config, null, 2));
    const h = new Harness(home.dir, project.dir, env, fake);
    h.cleanups.push(() => fake.close(), home.cleanup, project.cleanup);
    h.host = await Host.create({ env });
    return h;
  }

  get script(): ModelScript {
    return this.fake.script;
  }

  async invoke<K extends CommandName>(method: K, params: RequestOf<K>): Promise<ResponseOf<K>> {
    const r = await this.host.router.invoke(method, params, CLIENT);
    if (!r.ok)
      throw Object.assign(new Error(`${method}: ${r.error.code}: ${r.error.message}`), {
        rpc: r.error,
      });
    return r.value as ResponseOf<K>;
  }

  /** Invokes and returns the error instead of throwing (for refusal tests). */
  async invokeError(method: CommandName, params: unknown) {
    const r = await this.host.router.invoke(method, params, CLIENT);
    if (r.ok) throw new Error(`${method} unexpectedly succeeded`);
    return r.error;
  }

  async newSession(): Promise<string> {
    return (await this.invoke('sessions.create', { project: 'proj' })).session.id;
  }

  async events(id: string): Promise<SessionEvent[]> {
    return (await this.invoke('sessions.open', { id })).events;
  }

  /** Waits (through the session topic) until `pred` holds for the log, bounded. */
  async waitFor(
    id: string,
    pred: (events: SessionEvent[]) => boolean,
    what = 'condition',
    timeoutMs = 15_000,
  ): Promise<SessionEvent[]> {
    const seen: SessionEvent[] = [];
    let resolveFn!: () => void;
    const done = new Promise<void>((r) => (resolveFn = r));
    const sub = await this.host.router.subscribe(
      `session:${id}`,
      0,
      (item) => {
        const e = item as SessionEvent;
        if (typeof e.seq !== 'number') return;
        seen.push(e);
        if (pred(seen)) resolveFn();
      },
      CLIENT,
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      if (!pred(seen)) {
        await Promise.race([
          done,
          new Promise(
            (_, rej) =>
              (timer = setTimeout(
                () =>
                  rej(
                    new Error(
                      `timed out waiting for ${what}; events: ${seen.map((e) => e.type).join(',')}`,
                    ),
                  ),
                timeoutMs,
              )),
          ),
        ]);
      }
    } finally {
      clearTimeout(timer);
      await sub.dispose();
    }
    return seen;
  }

  /** Waits for the run started after `fromSeq` to end (idle, failed or stopped). */
  waitRunEnd(id: string, fromSeq = 0, timeoutMs?: number): Promise<SessionEvent[]> {
    return this.waitFor(
      id,
      (ev) =>
        ev.some(
          (e) =>
            e.seq >= fromSeq &&
            e.type === 'run_state' &&
            ['idle', 'failed', 'stopped'].includes(e.state),
        ),
      'the run to end',
      timeoutMs,
    );
  }

  async send(
    id: string,
    text: string,
    capabilities: ('generative_ui' | 'ask_user' | 'approvals')[] = [
      'generative_ui',
      'ask_user',
      'approvals',
    ],
  ): Promise<number> {
    const before = (await this.events(id)).length;
    await this.invoke('sessions.send', { id, text, capabilities });
    return before;
  }

  /** Disposes the host and starts a new one on the same $MEWBO_HOME: an app restart. */
  async restart(): Promise<void> {
    await this.host.dispose();
    this.host = await Host.create({ env: this.env });
  }

  async close(): Promise<void> {
    await this.host.dispose();
    for (const c of this.cleanups.reverse()) await c();
  }
}

export function ofType<T extends SessionEvent['type']>(
  events: SessionEvent[],
  type: T,
): Extract<SessionEvent, { type: T }>[] {
  return events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);
}
