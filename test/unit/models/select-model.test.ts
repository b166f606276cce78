import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { ConfigStore } from '../../../electron/host/config/config-store';
import { ModelSettings } from '../../../electron/host/models/model-settings';
import { ResponsesOnlyModels } from '../../../electron/host/models/responses-only';
import { probeOllama, selectModel } from '../../../electron/host/models/select-model';
import { FileSecretStore } from '../../../electron/host/secrets/file-secret-store';
import type { SecretStore } from '../../../electron/host/secrets/secret-store';
import { FakeOpenAi } from '../../helpers/fake-openai';
import { tempDir } from '../../helpers/temp';

class MemorySecrets implements SecretStore {
  constructor(private readonly map = new Map<string, string>()) {}
  async get(n: string) {
    return this.map.get(n);
  }
  async set(n: string, v: string) {
    this.map.set(n, v);
  }
  async delete(n: string) {
    this.map.delete(n);
  }
}

// Nothing answers here, so the default Ollama probe is deterministic on any machine.
const DEAD = 'http://127.0.0.1:9';
const cfg = (raw: object = {}) => parseConfig(raw);
const select = (
  raw: object,
  env: NodeJS.ProcessEnv,
  secrets: SecretStore = new MemorySecrets(),
  override?: string,
) => selectModel({ cfg: cfg(raw), env: { OLLAMA_BASE_URL: DEAD, ...env }, secrets, override });

let ollama: FakeOpenAi;
beforeAll(async () => {
  ollama = await FakeOpenAi.start({ models: ['qwen3:8b', 'llama3'] });
});
afterAll(() => ollama.close());

describe('default model selection', () => {
  it('an Anthropic key picks Anthropic with its default model; base URL from the environment', async () => {
    const s = await select(
      {},
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' },
    );
    expect(s.ok && [s.provider.provider, s.provider.model]).toEqual([
      'anthropic',
      'claude-sonnet-4-5',
    ]);
  });

  it('an OpenAI key picks OpenAI; so does OPENAI_BASE_URL alone (a local OpenAI-compatible server)', async () => {
    const a = await select({}, { OPENAI_API_KEY: 'k' });
    expect(a.ok && a.provider.provider).toBe('openai');
    const b = await select({}, { OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1' });
    expect(b.ok && b.provider.provider).toBe('openai');
  });

  it('a key in the secret store counts like one in the environment', async () => {
    const s = await select(
      {},
      {},
      new MemorySecrets(new Map([['providers.openai.api_key', 'stored']])),
    );
    expect(s.ok && s.provider.provider).toBe('openai');
  });

  it('with no key, a local Ollama that answers is used with its first model', async () => {
    const s = await selectModel({
      cfg: cfg(),
      env: { OLLAMA_BASE_URL: ollama.url },
      secrets: new MemorySecrets(),
    });
    expect(s.ok && [s.provider.provider, s.provider.model]).toEqual(['ollama', 'qwen3:8b']);
  });

  it('with nothing at all, says no model is set and how to set one', async () => {
    const s = await select({}, {});
    expect(s.ok).toBe(false);
    if (!s.ok) {
      expect(s.code).toBe('no_model');
      expect(s.message).toMatch(/No model is set/);
      for (const how of [
        'ANTHROPIC_API_KEY',
        'OPENAI_API_KEY',
        'Settings',
        'configs/app.json',
        'Ollama',
      ])
        expect(s.message).toContain(how);
    }
  });

  it('configs/app.json model.provider wins over keys, and names the missing key when it has none', async () => {
    const s = await select(
      { model: { provider: 'openai', name: 'gpt-4.1' } },
      { ANTHROPIC_API_KEY: 'k' },
    );
    expect(s.ok).toBe(false);
    if (!s.ok) expect(s.message).toMatch(/OPENAI_API_KEY/);
    const t = await select(
      { model: { provider: 'openai', name: 'gpt-4.1' } },
      { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'o' },
    );
    expect(t.ok && [t.provider.provider, t.provider.model, t.provider.contextWindow]).toEqual([
      'openai',
      'gpt-4.1',
      1_000_000,
    ]);
  });

  it('an override picks the provider by name prefix or an explicit provider: prefix', async () => {
    const env = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' };
    const a = await select({}, env, undefined, 'gpt-5-mini');
    expect(a.ok && [a.provider.provider, a.provider.model]).toEqual(['openai', 'gpt-5-mini']);
    const b = await select({}, env, undefined, 'anthropic:my-proxy-model');
    expect(b.ok && [b.provider.provider, b.provider.model]).toEqual([
      'anthropic',
      'my-proxy-model',
    ]);
  });

  it('model.context_window overrides the window guessed from the name', async () => {
    const s = await select({ model: { context_window: 4096 } }, { ANTHROPIC_API_KEY: 'k' });
    expect(s.ok && s.provider.contextWindow).toBe(4096);
  });
});

describe('probeOllama', () => {
  it('lists the models of a server that answers /api/tags, and null where nothing answers', async () => {
    expect(await probeOllama(`${ollama.url}/v1`)).toEqual(['qwen3:8b', 'llama3']);
    expect(await probeOllama(DEAD)).toBeNull();
  });
});

describe('model settings', () => {
  it('writes model and providers into configs/app.json, keeping every other key, and validates the result', async () => {
    const home = tempDir();
    try {
      const file = join(home.dir, 'configs', 'app.json');
      mkdirSync(join(home.dir, 'configs'));
      writeFileSync(file, JSON.stringify({ permission_mode: 'auto', projects: {} }));
      const store = ConfigStore.open({ file, watch: false });
      const settings = new ModelSettings({
        config: store,
        env: { OLLAMA_BASE_URL: DEAD },
        secrets: new MemorySecrets(),
        learned: new ResponsesOnlyModels(join(home.dir, 'state', 'learned.json')),
      });
      await settings.update({
        model: { provider: 'openai', name: 'gpt-5' },
        providers: { openai: { base_url: 'http://127.0.0.1:1/v1' } },
      });
      const written = JSON.parse(readFileSync(file, 'utf8'));
      expect(written).toEqual({
        permission_mode: 'auto',
        projects: {},
        model: { provider: 'openai', name: 'gpt-5' },
        providers: { openai: { base_url: 'http://127.0.0.1:1/v1' } },
      });
      await settings.update({ model: { provider: null, name: null } });
      expect(JSON.parse(readFileSync(file, 'utf8')).model).toEqual({});
      await expect(settings.update({ model: { context_window: 12 } })).rejects.toThrow(
        /model\.context_window/,
      );
      expect(JSON.parse(readFileSync(file, 'utf8')).model).toEqual({});
    } finally {
      home.cleanup();
    }
  });

  it('status never carries a key, only whether there is one, where from, and its last four characters', async () => {
    const settings = new ModelSettings({
      config: ConfigStore.open({ file: '/nonexistent/app.json', watch: false }),
      env: { ANTHROPIC_API_KEY: 'sk-ant-0123456789abcd', OLLAMA_BASE_URL: DEAD },
      secrets: new MemorySecrets(),
      learned: new ResponsesOnlyModels('/nonexistent/learned.json'),
    });
    const status = await settings.status();
    expect(JSON.stringify(status)).not.toContain('sk-ant-0123456789abcd');
    expect(status.providers.find((p) => p.id === 'anthropic')).toMatchObject({
      has_key: true,
      key_source: 'env',
      key_hint: 'abcd',
    });
    expect(status.selected).toMatchObject({ provider: 'anthropic' });
  });
});

describe('the file secret store', () => {
  it('keeps keys in a 0600 file and survives a reopen; delete removes the key', async () => {
    const home = tempDir();
    try {
      const file = join(home.dir, 'configs', 'secrets.json');
      const a = new FileSecretStore(file);
      await Promise.all([
        a.set('providers.anthropic.api_key', 'one'),
        a.set('providers.openai.api_key', 'two'),
      ]);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const b = new FileSecretStore(file);
      expect(await b.get('providers.anthropic.api_key')).toBe('one');
      expect(await b.get('providers.openai.api_key')).toBe('two');
      await b.delete('providers.anthropic.api_key');
      expect(await new FileSecretStore(file).get('providers.anthropic.api_key')).toBeUndefined();
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      home.cleanup();
    }
  });

  it('a file that is not a secrets file is an error naming it, not an empty store', async () => {
    const home = tempDir();
    try {
      const file = join(home.dir, 'secrets.json');
      writeFileSync(file, '[1,2]');
      await expect(new FileSecretStore(file).get('x')).rejects.toThrow(/not a secrets file/);
    } finally {
      home.cleanup();
    }
  });
});
