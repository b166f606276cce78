import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../../electron/host/host';
import type { SessionEvent } from '../../../shared/protocol/events';
import { tempDir } from '../../helpers/temp';
import { Harness, ofType, type Wire } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function runOnce(wire: Wire, setup: (h: Harness) => void): Promise<SessionEvent[]> {
  h = await Harness.start({ wire });
  setup(h);
  const id = await h.newSession();
  return h.waitRunEnd(id, await h.send(id, 'hello'));
}

describe.each<Wire>(['anthropic', 'openai'])('provider errors over %s', (wire) => {
  it('a 429 is retried and the run succeeds', async () => {
    const events = await runOnce(wire, (h) =>
      h.script.push(
        { error: { status: 429, message: 'slow down', headers: { 'retry-after': '0' } } },
        { text: 'after the retry' },
      ),
    );
    expect(ofType(events, 'assistant_message')[0]!.text).toBe('after the retry');
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'idle' });
  });

  it('a server error that persists fails the run with the server error, after bounded retries', async () => {
    const events = await runOnce(wire, (h) =>
      h.script.push(
        ...Array.from({ length: 4 }, () => ({
          error: { status: 500, message: 'upstream exploded', headers: { 'retry-after': '0' } },
        })),
      ),
    );
    const error = ofType(events, 'error').at(-1)!;
    expect(error.code).toBe('server');
    expect(error.message).toContain('upstream exploded');
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'failed' });
    expect(h!.script.requests).toHaveLength(4);
  });
});

describe('failures before any model answers', () => {
  async function hostWith(env: NodeJS.ProcessEnv, config: object = {}) {
    const home = tempDir('mewbo-agent-home-');
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(join(home.dir, 'configs', 'app.json'), JSON.stringify(config));
    const host = await Host.create({
      env: { PATH: process.env.PATH, MEWBO_HOME: home.dir, ...env },
    });
    const client = { clientId: 't', transport: 'local' as const };
    const invoke = async <T>(m: string, p: unknown): Promise<T> => {
      const r = await host.router.invoke(m, p, client);
      if (!r.ok) throw new Error(r.error.message);
      return r.value as T;
    };
    const run = async () => {
      const { session } = await invoke<{ session: { id: string } }>('sessions.create', {});
      await invoke('sessions.send', { id: session.id, text: 'hi' });
      await host.agent.idle(session.id);
      return (await invoke<{ events: SessionEvent[] }>('sessions.open', { id: session.id })).events;
    };
    return {
      host,
      invoke,
      run,
      done: async () => {
        await host.dispose();
        home.cleanup();
      },
    };
  }

  it('a wrong key is an auth error naming the fix', async () => {
    const fake = await (await import('../../helpers/fake-anthropic')).FakeAnthropic.start();
    const t = await hostWith({ ANTHROPIC_API_KEY: 'wrong-key', ANTHROPIC_BASE_URL: fake.url });
    try {
      const events = await t.run();
      const error = events.filter((e) => e.type === 'error').at(-1) as Extract<
        SessionEvent,
        { type: 'error' }
      >;
      expect(error.code).toBe('auth');
      expect(error.message).toMatch(/API key/);
      expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'failed' });
    } finally {
      await t.done();
      await fake.close();
    }
  });

  it('a provider that cannot be reached is a network error naming the address', async () => {
    const t = await hostWith({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    try {
      const events = await t.run();
      const error = events.filter((e) => e.type === 'error').at(-1) as Extract<
        SessionEvent,
        { type: 'error' }
      >;
      expect(error.code).toBe('network');
      expect(error.message).toContain('127.0.0.1:9');
    } finally {
      await t.done();
    }
  });

  it('with no key, no config and no local Ollama, the run says no model is set and how to set one', async () => {
    // Where the default Ollama probe goes, nothing answers (a dead port, not this machine's 11434).
    const t = await hostWith({ OLLAMA_BASE_URL: 'http://127.0.0.1:9' });
    try {
      const status = await t.invoke<{ selected: unknown; message: string }>('models.status', {});
      expect(status.selected).toBeNull();
      expect(status.message).toMatch(/No model is set/);
      expect(status.message).toMatch(/ANTHROPIC_API_KEY/);
      expect(status.message).toMatch(/Ollama/);
      const events = await t.run();
      const error = events.filter((e) => e.type === 'error').at(-1) as Extract<
        SessionEvent,
        { type: 'error' }
      >;
      expect(error.code).toBe('no_model');
      expect(error.message).toBe(status.message);
      expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'failed' });
    } finally {
      await t.done();
    }
  });
});
