import { useEffect, useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { MODEL_SELECT_ID } from '../../lib/focus';

/**
 * The session's model: the app's default, or one of the models the default provider lists
 * (its /v1/models or Ollama's /api/tags). A choice applies from the session's next run on and is
 * kept in its log.
 */
export function ModelPicker({ id, chosen }: { id: string; chosen: string | null }) {
  const client = useClient();
  const [fallback, setFallback] = useState<{ provider: string; model: string } | null>(null);
  const [models, setModels] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const status = await client.invoke('models.status', {});
        if (!live || !status.selected) return;
        setFallback(status.selected);
        const { models } = await client.invoke('models.list', {
          provider: status.selected.provider,
        });
        if (live) setModels(models.map((m) => `${status.selected!.provider}:${m}`));
      } catch (err) {
        if (live) setError(errorText(err));
      }
    })();
    return () => {
      live = false;
    };
  }, [client]);

  const choose = async (value: string) => {
    try {
      await client.invoke('sessions.setModel', { id, model: value || null });
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  const options = chosen && !models.includes(chosen) ? [chosen, ...models] : models;
  const label = (ref: string) => ref.replace(/^(anthropic|openai|ollama):/, '');
  // The whole name in the tooltip: a narrow header cuts it short.
  const current = chosen ? label(chosen) : (fallback?.model ?? 'the default');
  return (
    <label className="model-picker" title={error ?? `The model this session runs on: ${current}`}>
      <span className="visually-hidden">Model</span>
      <select
        id={MODEL_SELECT_ID}
        aria-label="Model"
        value={chosen ?? ''}
        onChange={(e) => void choose(e.target.value)}
        aria-invalid={error ? true : undefined}
      >
        {/* The model's name first: where the header is narrow, its end is what gives way. */}
        <option value="">{fallback ? `${fallback.model} (default)` : 'Default model'}</option>
        {options.map((m) => (
          <option key={m} value={m}>
            {label(m)}
          </option>
        ))}
      </select>
    </label>
  );
}
