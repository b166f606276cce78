import { useHostQuery } from '../../lib/use-host-query';
import { ModelSettings } from '../dialogs/settings/ModelSettings';

/**
 * With no model configured, the first screen says so and sets one up in place (provider, key,
 * the provider's model list, a test) before the person types a message that could not be answered.
 * Gone as soon as a model is selected (the settings topic reloads the status).
 */
export function FirstRunSetup() {
  const q = useHostQuery('models.status', {}, 'settings');
  if (!q.data || q.data.selected) return null;
  return (
    <section className="first-run" aria-label="Set up a model">
      <h2>No model is set up yet</h2>
      <p className="muted">
        The agent needs a model to answer. Pick a provider, paste its key (Ollama needs none),
        choose a model, test it, and save. A key in the environment (ANTHROPIC_API_KEY or
        OPENAI_API_KEY) or a running Ollama works too.
      </p>
      <ModelSettings firstRun />
    </section>
  );
}
