import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('model settings over the protocol', () => {
  it('models.status names the selected model and where its key came from, never the key', async () => {
    h = await Harness.start();
    const status = await h.invoke('models.status', {});
    expect(status.selected).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(status.providers.find((p) => p.id === 'anthropic')).toMatchObject({
      has_key: true,
      key_source: 'env',
      base_url: h.fake.url,
      base_url_source: 'env',
    });
    expect(JSON.stringify(status)).not.toContain('test-key');
  });

  it('a key set in Settings is stored 0600 under configs, used by the next run, and deleted again', async () => {
    h = await Harness.start({ wire: 'openai' });
    delete h.env.OPENAI_API_KEY;
    await h.restart();
    expect(
      (await h.invoke('models.status', {})).providers.find((p) => p.id === 'openai')!.has_key,
    ).toBe(false);
    await h.invoke('models.setKey', { provider: 'openai', key: 'sk-test' });
    const file = join(h.home, 'configs', 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(h.home, 'configs', 'app.json'), 'utf8')).not.toContain('sk-test');
    expect(
      (await h.invoke('models.status', {})).providers.find((p) => p.id === 'openai'),
    ).toMatchObject({ has_key: true, key_source: 'settings' });
    h.script.push({ text: 'authorized by the stored key' });
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'hi'));
    expect(
      events.some(
        (e) => e.type === 'assistant_message' && e.text === 'authorized by the stored key',
      ),
    ).toBe(true);
    await h.invoke('models.deleteKey', { provider: 'openai' });
    expect(
      (await h.invoke('models.status', {})).providers.find((p) => p.id === 'openai')!.has_key,
    ).toBe(false);
  });

  it('models.setSettings switches the model for the next run and persists across a restart; bad values are refused', async () => {
    h = await Harness.start({ wire: 'openai' });
    const status = await h.invoke('models.setSettings', {
      model: { provider: 'openai', name: 'gpt-4.1-mini' },
    });
    expect(status.selected).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      context_window: 1_000_000,
    });
    h.script.push({ text: 'ok' });
    const id = await h.newSession();
    await h.waitRunEnd(id, await h.send(id, 'hi'));
    expect(h.script.requests[0]!.body.model).toBe('gpt-4.1-mini');
    await h.restart();
    expect((await h.invoke('models.status', {})).selected!.model).toBe('gpt-4.1-mini');
    expect((await h.invokeError('models.setSettings', { model: { context_window: 5 } })).code).toBe(
      'invalid_params',
    );
    expect(
      (
        await h.invokeError('models.setSettings', {
          providers: { openai: { base_url: 'not a url' } },
        })
      ).code,
    ).toBe('invalid_params');
  });

  it('models.list asks the provider itself', async () => {
    h = await Harness.start({ wire: 'openai' });
    expect((await h.invoke('models.list', { provider: 'openai' })).models).toEqual(['gpt-5']);
  });
});
