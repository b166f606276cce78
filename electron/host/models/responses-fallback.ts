import { isResponsesOnlyError, type ResponsesOnlyModels } from './responses-only';
import type { ModelProvider, ModelRequest, ModelTurn, StreamCallbacks } from './types';

// An OpenAI-compatible model under providers.openai.api "auto" starts on Chat Completions. When
// the server answers that the model speaks only the Responses API, the call is made again there
// (nothing was streamed: the 404 came before any reply), the model is remembered for its server
// (later runs start on Responses, responses-only.ts) and the session is told once.

export interface ModelNotice {
  code: string;
  message: string;
}

export interface ResponsesFallbackOptions {
  chat: ModelProvider;
  responses: () => ModelProvider;
  baseUrl: string;
  learned: ResponsesOnlyModels;
  /** Told when the model is switched: a notice for the session. */
  onNotice?: (notice: ModelNotice) => void;
}

export class ResponsesFallback implements ModelProvider {
  readonly provider = 'openai' as const;
  private current: ModelProvider;

  constructor(private readonly opts: ResponsesFallbackOptions) {
    this.current = opts.chat;
  }

  /** Which API the next call uses. */
  get api(): 'chat' | 'responses' {
    return this.current === this.opts.chat ? 'chat' : 'responses';
  }
  get model(): string {
    return this.current.model;
  }
  get contextWindow(): number {
    return this.current.contextWindow;
  }
  get images(): boolean | undefined {
    return this.current.images;
  }
  get imageLimits(): ModelProvider['imageLimits'] {
    return this.current.imageLimits;
  }

  async complete(req: ModelRequest, signal: AbortSignal, cb?: StreamCallbacks): Promise<ModelTurn> {
    if (this.api === 'responses') return this.current.complete(req, signal, cb);
    try {
      return await this.opts.chat.complete(req, signal, cb);
    } catch (err) {
      if (!isResponsesOnlyError(err)) throw err;
    }
    const { model, baseUrl } = { model: this.model, baseUrl: this.opts.baseUrl };
    this.current = this.opts.responses();
    await this.opts.learned.remember(baseUrl, model);
    this.opts.onNotice?.({
      code: 'responses_api',
      message: `${model} at ${baseUrl} answers only on the Responses API, not Chat Completions: it uses the Responses API from now on (providers.openai.api in configs/app.json overrides this).`,
    });
    return this.current.complete(req, signal, cb);
  }
}
