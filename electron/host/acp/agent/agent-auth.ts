import { RequestError, type AuthMethod } from '@agentclientprotocol/sdk';
import type { ModelSettings } from '../../models/model-settings';

// `mewbo acp`'s authentication: the app holds no account of its own, only the model it is set up
// with (a key in Settings or configs/app.json, a key in the environment the editor starts it
// with, or a local Ollama). `initialize` names those ways; `authenticate` says whether one is in
// place now; a session/new with no model at all answers ACP's auth_required, saying what to do.

export const AUTH_METHODS = [
  {
    id: 'mewbo-settings',
    name: 'Model set up in Mewbo',
    description:
      'A model key entered in the Mewbo app (Settings), "model" and "providers" in $MEWBO_HOME/configs/app.json, or a local Ollama',
  },
  {
    id: 'env-api-key',
    name: 'API key in the environment',
    description:
      'ANTHROPIC_API_KEY or OPENAI_API_KEY (or OPENAI_BASE_URL for a local server) in the environment this agent is started with (Zed: "env" of agent_servers.Mewbo), then restart the agent',
  },
] as const satisfies readonly AuthMethod[];

type Models = Pick<ModelSettings, 'select'>;

/** ACP's auth_required (-32000) when no model can be selected now, naming how to set one up. */
export async function requireModel(models: Models): Promise<void> {
  const selection = await models.select();
  if (!selection.ok)
    throw RequestError.authRequired(
      { authMethods: AUTH_METHODS.map((m) => m.id) },
      selection.message,
    );
}

/** `authenticate`: a method the agent named, answered by whether a model is set up now. */
export async function authenticate(models: Models, methodId: string): Promise<void> {
  if (!AUTH_METHODS.some((m) => m.id === methodId))
    throw RequestError.invalidParams(
      { methodId },
      `no auth method '${methodId}': one of ${AUTH_METHODS.map((m) => m.id).join(', ')}`,
    );
  await requireModel(models);
}
