import { useEffect, useState, type FormEvent } from 'react';
import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';
import { errorText } from '../../../state/agent-actions';

type Provider = 'anthropic' | 'openai' | 'ollama';

export interface ModelSettingsView {
  provider: Provider | null;
  model: string | null;
  /** Why this model is the active one, or why none is. */
  reason: string;
  providers: Record<Provider, { base_url: string | null; has_key: boolean; model: string | null }>;
}

const PROVIDER_LABEL: Record<Provider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI or compatible (vLLM, LM Studio, llama.cpp)',
  ollama: 'Ollama (local)',
};

/** The model and its provider: base URL, model name and a key (stored encrypted, never shown). */
export function ModelSettings() {
  const client = useClient();
  const q = useHostQuery<ModelSettingsView>('agent.modelSettings', {}, 'settings');
  const [provider, setProvider] = useState<Provider>('anthropic');
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [key, setKey] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    if (!q.data) return;
    const p = q.data.provider ?? 'anthropic';
    setProvider(p);
    setModel(q.data.providers[p]?.model ?? q.data.model ?? '');
    setBaseUrl(q.data.providers[p]?.base_url ?? '');
  }, [q.data]);

  if (q.unavailable)
    return <p className="muted">Model settings are not available in this build.</p>;
  const current = q.data?.providers[provider];

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    try {
      await client.transport.invoke('agent.setModelSettings', {
        provider,
        model: model.trim() || null,
        base_url: baseUrl.trim() || null,
        ...(key ? { api_key: key } : {}),
      });
      setKey('');
      setStatus({ ok: true, text: 'Saved.' });
      q.reload();
    } catch (err) {
      setStatus({ ok: false, text: errorText(err) });
    }
  };

  return (
    <form className="form" onSubmit={save}>
      {q.error && <p className="error-text">{q.error}</p>}
      {q.data && (
        <p className={q.data.provider ? 'muted' : 'warn'} role="status">
          {q.data.provider ? (
            <>
              Active: <strong>{q.data.model}</strong> via {PROVIDER_LABEL[q.data.provider]}.{' '}
              {q.data.reason}
            </>
          ) : (
            <>No model is set. {q.data.reason}</>
          )}
        </p>
      )}
      <label>
        Provider
        <select value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
          {(Object.keys(PROVIDER_LABEL) as Provider[]).map((p) => (
            <option key={p} value={p}>
              {PROVIDER_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Model
        <input
          value={model}
          onChange={(e) => setModel(e.target.value)}
          placeholder={
            provider === 'anthropic'
              ? 'claude-sonnet-4-5'
              : provider === 'openai'
                ? 'gpt-5'
                : 'qwen3-coder'
          }
        />
      </label>
      <label>
        Base URL
        <input
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          placeholder={provider === 'ollama' ? 'http://127.0.0.1:11434' : 'default'}
        />
      </label>
      {provider !== 'ollama' && (
        <label>
          API key
          <input
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder={current?.has_key ? 'a key is stored (type to replace it)' : 'paste a key'}
          />
        </label>
      )}
      <div className="actions">
        {status && (
          <span
            className={status.ok ? 'ok-text' : 'error-text'}
            role={status.ok ? 'status' : 'alert'}
          >
            {status.text}
          </span>
        )}
        <button type="submit" className="primary">
          Save
        </button>
      </div>
    </form>
  );
}
