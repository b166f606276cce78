import { useEffect, useState, type FormEvent } from 'react';
import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';
import { errorText } from '../../../state/agent-actions';
import type { ModelsStatusWire } from '../../../../../shared/protocol/commands/agent';

type Provider = ModelsStatusWire['providers'][number]['id'];

const PROVIDER_LABEL: Record<Provider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI or compatible (vLLM, LM Studio, llama.cpp)',
  ollama: 'Ollama (local)',
};
const SOURCE_LABEL = {
  settings: 'set here',
  config: 'from configs/app.json',
  env: 'from the environment',
  default: 'default',
} as const;

/**
 * The model and its provider: which one runs, where the provider is, its key. A key is write-only:
 * the host keeps it (safeStorage, or a 0600 file under the web host) and shows only its last digits.
 */
export function ModelSettings({ firstRun = false }: { firstRun?: boolean }) {
  const client = useClient();
  const q = useHostQuery('models.status', {}, 'settings');
  const [provider, setProvider] = useState<Provider>('anthropic');
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [key, setKey] = useState('');
  const [offered, setOffered] = useState<string[]>([]);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const data = q.data;
  useEffect(() => {
    if (!data) return;
    const p = data.model.provider ?? data.selected?.provider ?? 'anthropic';
    setProvider(p);
  }, [data]);
  const view = data?.providers.find((p) => p.id === provider);
  useEffect(() => {
    setModel(
      (data?.model.provider === provider ? data.model.name : undefined) ?? view?.model ?? '',
    );
    // Only a URL set in settings or the config file is this form's to edit; an env or default one shows as a hint.
    setBaseUrl(
      view && (view.base_url_source === 'settings' || view.base_url_source === 'config')
        ? view.base_url
        : '',
    );
  }, [data, provider, view]);
  // A listing belongs to its provider; a settings reload (which every action triggers) keeps it.
  useEffect(() => setOffered([]), [provider]);

  const run = async (what: () => Promise<unknown>, done: string) => {
    setStatus(null);
    try {
      await what();
      setStatus({ ok: true, text: done });
      q.reload();
    } catch (err) {
      setStatus({ ok: false, text: errorText(err) });
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      if (key.trim()) await client.invoke('models.setKey', { provider, key: key.trim() });
      await client.invoke('models.setSettings', {
        model: { provider, name: model.trim() || null },
        providers: {
          [provider]: { base_url: baseUrl.trim() || null, model: model.trim() || null },
        },
      });
      setKey('');
    }, 'Saved. New runs use this model.');
  };
  // The provider answering its model listing with this key and address is the test: it costs
  // nothing and fails the same way a run would (wrong key, wrong URL, no network).
  const test = async () => {
    setStatus(null);
    try {
      if (key.trim()) await client.invoke('models.setKey', { provider, key: key.trim() });
      if (baseUrl.trim())
        await client.invoke('models.setSettings', {
          providers: { [provider]: { base_url: baseUrl.trim() } },
        });
      const r = await client.invoke('models.list', { provider });
      setOffered(r.models);
      setStatus({ ok: true, text: `${PROVIDER_LABEL[provider]} answered: it works.` });
    } catch (err) {
      setStatus({ ok: false, text: errorText(err) });
    }
  };
  const listModels = async () => {
    setStatus(null);
    try {
      const r = await client.invoke('models.list', { provider });
      setOffered(r.models);
      setStatus({
        ok: true,
        text: r.models.length
          ? `${PROVIDER_LABEL[provider]} offers ${r.models.length === 1 ? '1 model' : `${r.models.length} models`}: pick one below.`
          : `${PROVIDER_LABEL[provider]} listed no models.`,
      });
    } catch (err) {
      setStatus({ ok: false, text: errorText(err) });
    }
  };

  return (
    <form className="form" onSubmit={save}>
      {q.error && <p className="error-text">{q.error}</p>}
      {/* The first-run panel says what is missing in its own words (the host's names config keys). */}
      {data && !firstRun && (
        <p className={data.selected ? 'muted' : 'warn'} role="status">
          {data.selected ? (
            <>
              Active: <strong>{data.selected.model}</strong> via{' '}
              {PROVIDER_LABEL[data.selected.provider]} — {data.selected.reason}
            </>
          ) : (
            (data.message ?? 'No model is set.')
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
        <span className="row">
          <input
            list="offered-models"
            value={model}
            onChange={(e) => setModel(e.target.value)}
            placeholder="the provider's default"
          />
          <button type="button" onClick={() => void listModels()}>
            List models
          </button>
        </span>
        <datalist id="offered-models">
          {offered.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      {offered.length > 0 && (
        <ul className="offered-models" aria-label="Models offered">
          {offered.map((m) => (
            <li key={m}>
              <button
                type="button"
                className={m === model ? 'chip selected' : 'chip'}
                aria-pressed={m === model}
                onClick={() => setModel(m)}
              >
                {m}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label>
        Base URL
        <input
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          placeholder={view?.base_url ?? ''}
        />
        {view && (
          <span className="muted small">
            Now {view.base_url} ({SOURCE_LABEL[view.base_url_source]})
          </span>
        )}
      </label>
      {provider !== 'ollama' && (
        <label>
          API key
          <span className="row">
            <input
              type="password"
              autoComplete="off"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              placeholder={
                view?.has_key
                  ? `…${view.key_hint ?? ''} (${SOURCE_LABEL[view.key_source ?? 'settings']}); type to replace`
                  : 'paste a key'
              }
            />
            {view?.has_key && view.key_source === 'settings' && (
              <button
                type="button"
                className="danger"
                onClick={() =>
                  void run(() => client.invoke('models.deleteKey', { provider }), 'Key removed.')
                }
              >
                Remove key
              </button>
            )}
          </span>
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
        <button type="button" onClick={() => void test()}>
          Test
        </button>
        <button type="submit" className="primary">
          Save
        </button>
      </div>
    </form>
  );
}
