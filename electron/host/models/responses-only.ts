import { readJsonOr, writeJsonAtomic } from '../store/atomic-json';
import { ModelError } from './model-error';

// Some models answer only on OpenAI's Responses API: Chat Completions gets a 404 in OpenAI's own
// words, "This model is only supported in v1/responses and not in v1/chat/completions.", which
// Azure OpenAI and proxies pass on. Under providers.openai.api "auto" such a model is switched to
// Responses (responses-fallback.ts) and remembered here, per base URL and model, in
// $MEWBO_HOME/state: it is learned from the server, not a setting, so app.json is left alone.

const RESPONSES_ONLY = /only supported in \/?v1\/responses/i;

/** The server said this model speaks only the Responses API. */
export function isResponsesOnlyError(err: unknown): boolean {
  return (
    err instanceof ModelError &&
    (err.code === 'not_found' || err.code === 'bad_request') &&
    RESPONSES_ONLY.test(err.message)
  );
}

interface Learned {
  base_url: string;
  model: string;
}

/** The models that answered "Responses only", per server; read afresh each time (serve and CLI share it). */
export class ResponsesOnlyModels {
  constructor(private readonly file: string) {}

  async has(baseUrl: string, model: string): Promise<boolean> {
    const key = entry(baseUrl, model);
    return (await this.read()).some((e) => e.base_url === key.base_url && e.model === key.model);
  }

  async remember(baseUrl: string, model: string): Promise<void> {
    if (await this.has(baseUrl, model)) return;
    await writeJsonAtomic(this.file, { models: [...(await this.read()), entry(baseUrl, model)] });
  }

  private async read(): Promise<Learned[]> {
    // A damaged file forgets what was learned: the next 404 teaches it again.
    const raw = (await readJsonOr(this.file, {}).catch(() => ({}))) as { models?: unknown };
    return Array.isArray(raw?.models)
      ? raw.models.filter(
          (e): e is Learned =>
            typeof e?.base_url === 'string' && typeof (e as Learned).model === 'string',
        )
      : [];
  }
}

function entry(baseUrl: string, model: string): Learned {
  return { base_url: baseUrl.replace(/\/+$/, ''), model };
}
