import { useState, type Ref } from 'react';
import { useHostQuery } from '../../lib/use-host-query';
import { ModelSettings } from '../dialogs/settings/ModelSettings';

/**
 * With no model configured, the first screen says so and sets one up in place (provider, key,
 * the provider's model list, a test) before the person types a message that could not be answered.
 * Over a conversation that already has history it is one line that opens the same form, so the
 * history stays readable. Gone as soon as a model is selected (the settings topic reloads it).
 * `held`: a message waits in the box below for the model (the message box sends it once saved).
 */
export function FirstRunSetup({
  compact = false,
  held = false,
  ref,
}: {
  compact?: boolean;
  held?: boolean;
  ref?: Ref<HTMLElement>;
}) {
  const q = useHostQuery('models.status', {}, 'settings');
  const [open, setOpen] = useState(false);
  if (!q.data || q.data.selected) return null;
  if (compact && !open && !held)
    return (
      <section ref={ref} className="first-run compact" aria-label="Set up a model">
        <span>No model is set up yet: the agent cannot answer.</span>
        <button type="button" className="primary small" onClick={() => setOpen(true)}>
          Set up a model
        </button>
      </section>
    );
  return (
    <section ref={ref} className="first-run" aria-label="Set up a model">
      <h2>{held ? 'Set up a model to send your message' : 'No model is set up yet'}</h2>
      <p className="muted">
        {held
          ? 'Your message stays in the box below and is sent as soon as a model is saved. '
          : 'The agent needs a model to answer. '}
        Pick a provider, paste its key (Ollama needs none), choose a model, test it, and save. A key
        in the environment (ANTHROPIC_API_KEY or OPENAI_API_KEY) or a running Ollama works too.
      </p>
      <ModelSettings firstRun />
    </section>
  );
}
