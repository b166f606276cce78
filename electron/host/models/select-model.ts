import type { SecretStore } from '../secrets/secret-store';
import { AnthropicProvider } from './anthropic';
import {
  contextWindowFor,
  DEFAULT_CONTEXT_WINDOW,
  parseModelRef,
  providerForModelName,
} from './catalog';
import { DEFAULT_MODELS, OLLAMA_AUTO_NUM_CTX_MAX, OLLAMA_PROBE_TIMEOUT_MS } from './constants';
import { ollamaModelInfo, OllamaProvider } from './ollama';
import { probeJson } from './probe-json';
import type { RetryPolicy } from './http';
import { OpenAiProvider } from './openai';
import { isReasoningModel, OpenAiResponsesProvider } from './openai-responses';
import { ResponsesFallback, type ModelNotice } from './responses-fallback';
import type { ResponsesOnlyModels } from './responses-only';
import {
  isConfigured,
  ollamaRoot,
  providerSettings,
  PROVIDER_IDS,
  type ModelSection,
  type ProviderSettings,
} from './provider-config';
import type { ModelProvider, ProviderId, ThinkingSetting } from './types';

// The default selection (DESIGN.md): an explicit choice wins; else a key picks its provider
// (Anthropic, then OpenAI or an OpenAI-compatible server); else a local Ollama if it answers; else
// a plain "no model is set" that says how to set one.

export const NO_MODEL_MESSAGE =
  'No model is set. Set one of: ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment; a key in ' +
  'Settings (models.setKey); "model" and "providers" in $MEWBO_HOME/configs/app.json (an ' +
  'OpenAI-compatible server such as LM Studio, vLLM or llama.cpp through providers.openai.base_url ' +
  'or OPENAI_BASE_URL); or start Ollama on 127.0.0.1:11434 with a pulled model.';

export type ModelSelection =
  | { ok: true; provider: ModelProvider; reason: string }
  | { ok: false; code: 'no_model' | 'no_key' | 'no_local_model'; message: string };

export interface SelectOptions {
  cfg: ModelSection;
  env: NodeJS.ProcessEnv;
  secrets: SecretStore;
  /** `--model` or a per-session choice: `provider:name` or a bare name. */
  override?: string;
  /** The session's thinking setting; absent: model.thinking from the config. */
  thinking?: ThinkingSetting;
  retry?: RetryPolicy;
  /** Models that said they speak only Responses; absent, an "auto" model stays on what it chose. */
  learned?: ResponsesOnlyModels;
  /** Where a switch to the Responses API is said (the session's notice). */
  onNotice?: (notice: ModelNotice) => void;
}

/** Model names an Ollama server holds, or null when nothing answers there. */
export async function probeOllama(
  base: string,
  timeoutMs = OLLAMA_PROBE_TIMEOUT_MS,
): Promise<string[] | null> {
  const root = ollamaRoot(base);
  try {
    const json = (await probeJson(`${root}/api/tags`, { timeoutMs })) as {
      models?: { name?: string; model?: string }[];
    } | null;
    if (json === null) return null;
    return (json.models ?? []).map((m) => m.name ?? m.model ?? '').filter(Boolean);
  } catch {
    return null;
  }
}

const atOpenAi = (baseUrl: string) =>
  URL.canParse(baseUrl) && new URL(baseUrl).hostname === 'api.openai.com';

/** GPT-5, o-series and Codex at OpenAI itself speak Responses; compatible servers Chat Completions. */
function usesResponses(
  api: 'auto' | 'chat' | 'responses' = 'auto',
  baseUrl: string,
  model: string,
) {
  if (api !== 'auto') return api === 'responses';
  return atOpenAi(baseUrl) ? isReasoningModel(model) : false;
}

async function build(
  p: ProviderSettings,
  model: string,
  opts: SelectOptions,
): Promise<ModelProvider> {
  const contextWindow = opts.cfg.model.context_window ?? contextWindowFor(model);
  if (p.id === 'anthropic') {
    return new AnthropicProvider({
      baseUrl: p.baseUrl,
      apiKey: p.apiKey ?? '',
      model,
      contextWindow,
      thinking: opts.thinking ?? opts.cfg.model.thinking,
      retry: opts.retry,
    });
  }
  const api = opts.cfg.providers.openai?.api ?? 'auto';
  const responses = () =>
    new OpenAiResponsesProvider({
      baseUrl: p.baseUrl,
      apiKey: p.apiKey,
      model,
      contextWindow,
      reasoningEffort: opts.cfg.model.reasoning_effort,
      retry: opts.retry,
    });
  // A model this server said speaks only Responses (auto only: a pinned api is the user's word).
  const learned = api === 'auto' && (await opts.learned?.has(p.baseUrl, model));
  if (learned || usesResponses(api, p.baseUrl, model)) return responses();
  const chat = new OpenAiProvider({
    provider: p.id,
    baseUrl: p.baseUrl,
    apiKey: p.apiKey,
    model,
    contextWindow,
    // OpenAI's own chat models take images; a compatible server's may be text only.
    images: opts.cfg.providers.openai?.images ?? atOpenAi(p.baseUrl),
    retry: opts.retry,
  });
  if (api !== 'auto' || !opts.learned) return chat;
  return new ResponsesFallback({
    chat,
    responses,
    baseUrl: p.baseUrl,
    learned: opts.learned,
    onNotice: opts.onNotice,
  });
}

const KEY_HINT: Record<ProviderId, string> = {
  anthropic: 'set ANTHROPIC_API_KEY, a key in Settings, or providers.anthropic in configs/app.json',
  openai:
    'set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server), a key in Settings, or providers.openai in configs/app.json',
  ollama: 'start Ollama on 127.0.0.1:11434 or set providers.ollama.base_url in configs/app.json',
};

async function withProvider(
  id: ProviderId,
  model: string | undefined,
  all: Record<ProviderId, ProviderSettings>,
  opts: SelectOptions,
  reason: string,
): Promise<ModelSelection> {
  const p = all[id];
  if (id === 'ollama') {
    const names = await probeOllama(p.baseUrl);
    if (names === null && !isConfigured(p))
      return {
        ok: false,
        code: 'no_model',
        message: `Ollama does not answer at ${p.baseUrl}: ${KEY_HINT.ollama}`,
      };
    const chosen = model ?? p.model ?? names?.[0];
    if (!chosen)
      return {
        ok: false,
        code: 'no_local_model',
        message: `Ollama at ${p.baseUrl} has no model: pull one (ollama pull qwen3) or set model.name`,
      };
    // The window Ollama is asked for (num_ctx) is the one the app budgets for: configured, or
    // the model's own (from /api/show) up to a cap. /api/show also says whether it takes images.
    const shown = await ollamaModelInfo(p.baseUrl, chosen, OLLAMA_PROBE_TIMEOUT_MS);
    const contextWindow =
      opts.cfg.model.context_window ??
      p.numCtx ??
      (shown.contextLength
        ? Math.min(shown.contextLength, OLLAMA_AUTO_NUM_CTX_MAX)
        : DEFAULT_CONTEXT_WINDOW);
    return {
      ok: true,
      provider: new OllamaProvider({
        baseUrl: p.baseUrl,
        model: chosen,
        contextWindow,
        images: shown.vision,
        retry: opts.retry,
      }),
      reason,
    };
  }
  if (!isConfigured(p))
    return {
      ok: false,
      code: 'no_key',
      message: `${reason}, but ${id} has no API key: ${KEY_HINT[id]}`,
    };
  const provider = await build(p, model ?? p.model ?? DEFAULT_MODELS[id], opts);
  return { ok: true, provider, reason };
}

export async function selectModel(opts: SelectOptions): Promise<ModelSelection> {
  const entries = await Promise.all(
    PROVIDER_IDS.map((id) => providerSettings(id, opts.cfg, opts.env, opts.secrets)),
  );
  const all = Object.fromEntries(entries.map((p) => [p.id, p])) as Record<
    ProviderId,
    ProviderSettings
  >;
  if (opts.override?.trim()) {
    const ref = parseModelRef(opts.override);
    const id =
      ref.provider ??
      providerForModelName(ref.model) ??
      opts.cfg.model.provider ??
      entries.find(isConfigured)?.id ??
      'ollama';
    return withProvider(id, ref.model, all, opts, `model '${opts.override}' was asked for`);
  }
  const { provider, name } = opts.cfg.model;
  if (provider)
    return withProvider(
      provider,
      name,
      all,
      opts,
      `configs/app.json sets model.provider '${provider}'`,
    );
  if (name && providerForModelName(name))
    return withProvider(
      providerForModelName(name)!,
      name,
      all,
      opts,
      `configs/app.json sets model.name '${name}'`,
    );
  for (const id of ['anthropic', 'openai'] as const) {
    if (isConfigured(all[id]))
      return withProvider(
        id,
        name,
        all,
        opts,
        `${id} is configured (${all[id].keySource ?? all[id].baseUrlSource})`,
      );
  }
  if ((await probeOllama(all.ollama.baseUrl)) !== null)
    return withProvider('ollama', name, all, opts, `Ollama answers at ${all.ollama.baseUrl}`);
  return { ok: false, code: 'no_model', message: NO_MODEL_MESSAGE };
}
