import type { AppConfig } from '../config/schema';
import { apiKeySecret, type SecretStore } from '../secrets/secret-store';
import {
  ANTHROPIC_DEFAULT_BASE_URL,
  OLLAMA_DEFAULT_BASE_URL,
  OPENAI_DEFAULT_BASE_URL,
} from './constants';
import type { ProviderId } from './types';

// One provider's effective settings, merged from the key store, configs/app.json and the
// environment, with where each value came from (the Settings screen shows it).

export type ValueSource = 'settings' | 'config' | 'env' | 'default';

export interface ProviderSettings {
  id: ProviderId;
  apiKey?: string;
  keySource: ValueSource | null;
  baseUrl: string;
  baseUrlSource: ValueSource;
  model?: string;
  /** Ollama: the context to ask for (options.num_ctx), when configured. */
  numCtx?: number;
}

const ENV: Record<ProviderId, { key?: string; base?: string }> = {
  anthropic: { key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL' },
  openai: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL' },
  ollama: { base: 'OLLAMA_BASE_URL' },
};
const DEFAULT_BASE: Record<ProviderId, string> = {
  anthropic: ANTHROPIC_DEFAULT_BASE_URL,
  openai: OPENAI_DEFAULT_BASE_URL,
  ollama: OLLAMA_DEFAULT_BASE_URL,
};
export const PROVIDER_IDS: ProviderId[] = ['anthropic', 'openai', 'ollama'];

export type ModelSection = Pick<AppConfig, 'model' | 'providers'>;

export async function providerSettings(
  id: ProviderId,
  cfg: ModelSection,
  env: NodeJS.ProcessEnv,
  secrets: SecretStore,
): Promise<ProviderSettings> {
  const conf = cfg.providers[id];
  const envNames = ENV[id];
  let apiKey: string | undefined;
  let keySource: ValueSource | null = null;
  const stored = await secrets.get(apiKeySecret(id)).catch(() => undefined);
  if (stored) [apiKey, keySource] = [stored, 'settings'];
  else if (conf?.api_key) [apiKey, keySource] = [conf.api_key, 'config'];
  else if (envNames.key && env[envNames.key]) [apiKey, keySource] = [env[envNames.key], 'env'];

  let baseUrl = DEFAULT_BASE[id];
  let baseUrlSource: ValueSource = 'default';
  if (conf?.base_url) [baseUrl, baseUrlSource] = [conf.base_url, 'config'];
  else if (envNames.base && env[envNames.base])
    [baseUrl, baseUrlSource] = [env[envNames.base]!, 'env'];
  if (id === 'ollama') baseUrl = ollamaRoot(baseUrl);
  const numCtx = conf && 'num_ctx' in conf ? conf.num_ctx : undefined;
  return { id, apiKey, keySource, baseUrl, baseUrlSource, model: conf?.model, numCtx };
}

/** Ollama's root URL: a trailing /v1 (its OpenAI-compatible API, from older configs) is ignored. */
export function ollamaRoot(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A provider is configured when it has a key, or (OpenAI-compatible) an explicit server URL. */
export function isConfigured(p: ProviderSettings): boolean {
  if (p.id === 'anthropic') return !!p.apiKey;
  if (p.id === 'openai') return !!p.apiKey || p.baseUrlSource !== 'default';
  return p.baseUrlSource !== 'default';
}
