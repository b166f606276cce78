import type { ConfigStore } from '../config/config-store';
import { apiKeySecret, type SecretStore } from '../secrets/secret-store';
import { ANTHROPIC_API_VERSION } from './constants';
import type { RetryPolicy } from './http';
import {
  providerSettings,
  PROVIDER_IDS,
  type ModelSection,
  type ValueSource,
} from './provider-config';
import type { ModelNotice } from './responses-fallback';
import type { ResponsesOnlyModels } from './responses-only';
import { selectModel, type ModelSelection } from './select-model';
import type { ProviderId, ThinkingSetting } from './types';

// The live model settings: the `model` and `providers` sections of configs/app.json (read from and
// changed through the ConfigStore, every other key of the file left as it was), the keys in
// the secret store, and the environment. Each run selects its model from these at its start.

export interface ModelSettingsPatch {
  model?: { provider?: ProviderId | null; name?: string | null; context_window?: number | null };
  providers?: Partial<
    Record<
      ProviderId,
      {
        base_url?: string | null;
        model?: string | null;
        /** The key entered with this change (stored as a secret, never in app.json). */
        api_key?: string;
      }
    >
  >;
}

export interface ProviderView {
  id: ProviderId;
  has_key: boolean;
  key_source: ValueSource | null;
  /** The last four characters, so a person can tell keys apart; never the key. */
  key_hint: string | null;
  base_url: string;
  base_url_source: ValueSource;
  model: string | null;
}

export interface ModelsStatus {
  selected: { provider: ProviderId; model: string; context_window: number; reason: string } | null;
  /** Why nothing is selected and how to set a model; null when one is. */
  message: string | null;
  model: ModelSection['model'];
  providers: ProviderView[];
}

export interface ModelSettingsOptions {
  /** The owner of configs/app.json: a hand edit of `model` or `providers` applies at once. */
  config: ConfigStore;
  env: NodeJS.ProcessEnv;
  secrets: SecretStore;
  /** What servers said of their models: which speak only the Responses API. */
  learned: ResponsesOnlyModels;
  retry?: RetryPolicy;
}

const stripNulls = <T extends object>(o: T) =>
  Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ''),
  );

export class ModelSettings {
  constructor(private readonly opts: ModelSettingsOptions) {}

  private get current(): ModelSection {
    const c = this.opts.config.config;
    return { model: c.model, providers: c.providers };
  }

  get section(): ModelSection {
    return this.current;
  }

  /** The model for a run; `onNotice` hears what the session should be told (an API switch). */
  select(
    override?: string,
    session: { thinking?: ThinkingSetting; onNotice?: (notice: ModelNotice) => void } = {},
  ): Promise<ModelSelection> {
    return selectModel({
      cfg: this.current,
      env: this.opts.env,
      secrets: this.opts.secrets,
      override,
      thinking: session.thinking,
      retry: this.opts.retry,
      learned: this.opts.learned,
      onNotice: session.onNotice,
    });
  }

  /**
   * Applies a patch (null clears a value), validates the whole file, writes it atomically.
   * A provider whose base_url changes loses its stored key, unless the same patch enters one:
   * otherwise a changed URL would send the key somewhere the user never sent it. The key goes
   * first, so no run can start between the new URL and the old key.
   */
  async update(patch: ModelSettingsPatch): Promise<ModelSection> {
    const dropped = new Set<string>();
    for (const [id, p] of Object.entries(patch.providers ?? {}) as [
      ProviderId,
      NonNullable<NonNullable<ModelSettingsPatch['providers']>[ProviderId]>,
    ][]) {
      if (p.api_key) await this.setKey(id, p.api_key);
      else if (p.base_url !== undefined && (await this.movesBaseUrl(id, p.base_url))) {
        await this.deleteKey(id);
        dropped.add(id);
      }
    }
    await this.opts.config.update((raw) => {
      if (patch.model) raw.model = stripNulls({ ...((raw.model as object) ?? {}), ...patch.model });
      if (patch.providers) {
        const providers = { ...((raw.providers as Record<string, object>) ?? {}) };
        for (const [id, { api_key: _entered, ...p }] of Object.entries(patch.providers)) {
          const merged: Record<string, unknown> = stripNulls({ ...(providers[id] ?? {}), ...p });
          // A key written in app.json by hand goes with the URL it was meant for, too.
          if (dropped.has(id)) delete merged.api_key;
          if (Object.keys(merged).length) providers[id] = merged;
          else delete providers[id];
        }
        raw.providers = providers;
      }
    });
    return this.current;
  }

  /** Whether setting base_url to `next` (null: back to the env or default) changes where requests go. */
  private async movesBaseUrl(id: ProviderId, next: string | null): Promise<boolean> {
    const { env, secrets } = this.opts;
    const conf = { ...this.current.providers[id], base_url: next ?? undefined };
    const after = { ...this.current, providers: { ...this.current.providers, [id]: conf } };
    const [was, will] = await Promise.all([
      providerSettings(id, this.current, env, secrets),
      providerSettings(id, after, env, secrets),
    ]);
    return was.baseUrl !== will.baseUrl;
  }

  setKey(provider: ProviderId, key: string): Promise<void> {
    return this.opts.secrets.set(apiKeySecret(provider), key);
  }

  deleteKey(provider: ProviderId): Promise<void> {
    return this.opts.secrets.delete(apiKeySecret(provider));
  }

  async providers(): Promise<ProviderView[]> {
    return Promise.all(
      PROVIDER_IDS.map(async (id) => {
        const p = await providerSettings(id, this.current, this.opts.env, this.opts.secrets);
        return {
          id,
          has_key: !!p.apiKey,
          key_source: p.keySource,
          key_hint: p.apiKey && p.apiKey.length >= 8 ? p.apiKey.slice(-4) : null,
          base_url: p.baseUrl,
          base_url_source: p.baseUrlSource,
          model: p.model ?? null,
        };
      }),
    );
  }

  async status(): Promise<ModelsStatus> {
    const [selection, providers] = await Promise.all([this.select(), this.providers()]);
    return {
      selected: selection.ok
        ? {
            provider: selection.provider.provider,
            model: selection.provider.model,
            context_window: selection.provider.contextWindow,
            reason: selection.reason,
          }
        : null,
      message: selection.ok ? null : selection.message,
      model: this.current.model,
      providers,
    };
  }

  /** The models a provider offers (its /models listing, or Ollama's /api/tags). */
  async listModels(provider: ProviderId): Promise<string[]> {
    const p = await providerSettings(provider, this.current, this.opts.env, this.opts.secrets);
    const base = p.baseUrl.replace(/\/+$/, '');
    const url =
      provider === 'anthropic'
        ? `${base}/v1/models?limit=1000`
        : provider === 'ollama'
          ? `${base}/api/tags`
          : `${base}/models`;
    const headers: Record<string, string> =
      provider === 'anthropic'
        ? { 'x-api-key': p.apiKey ?? '', 'anthropic-version': ANTHROPIC_API_VERSION }
        : p.apiKey
          ? { authorization: `Bearer ${p.apiKey}` }
          : {};
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
    const json = (await res.json()) as { data?: { id: string }[]; models?: { name: string }[] };
    return provider === 'ollama'
      ? (json.models ?? []).map((m) => m.name)
      : (json.data ?? []).map((m) => m.id);
  }
}
