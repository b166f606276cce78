import { RequestError, type SessionConfigOption } from '@agentclientprotocol/sdk';
import type { AgentService } from '../../agent/agent-service';
import { currentMode, sessionModel } from '../../agent/session-state';
import type { PermissionMode } from '../../config/schema';
import { DEFAULT_MODELS } from '../../models/constants';
import type { ModelSettings } from '../../models/model-settings';
import type { Session } from '../../sessions/session';
import { ACP_MODES } from './constants';

// A session's ACP config options (`mewbo acp`): its permission mode and its model, as selects the
// editor shows (categories `mode` and `model`; ACP 1 has no session/set_model, the model is a
// config option). The model's choices are the app's default and the models the app is set up
// with (the selected one, each provider with a key or a configured model); choosing one is the
// session's own model choice, as in the desktop app's header; `default` follows the app again.

export const MODE_OPTION = 'mode';
export const MODEL_OPTION = 'model';
/** The model choice that follows the app's default (no choice of the session's own). */
export const DEFAULT_MODEL = 'default';

export interface ConfigDeps {
  agent: Pick<AgentService, 'setMode' | 'setModel'>;
  models: Pick<ModelSettings, 'status'>;
  permissionMode: PermissionMode;
}

/** The models the app is set up with, as `provider:model`, and the default's name. */
async function modelChoices(models: ConfigDeps['models']) {
  const status = await models.status();
  const refs = new Set<string>();
  const selected = status.selected ? `${status.selected.provider}:${status.selected.model}` : null;
  if (selected) refs.add(selected);
  for (const p of status.providers) {
    const name = p.model ?? (p.id === 'ollama' ? undefined : DEFAULT_MODELS[p.id]);
    if (name && (p.has_key || p.model)) refs.add(`${p.id}:${name}`);
  }
  return { selected, refs: [...refs] };
}

export async function configOptions(
  session: Session,
  deps: ConfigDeps,
): Promise<SessionConfigOption[]> {
  const events = session.events();
  const own = sessionModel(events)?.model ?? null;
  const { selected, refs } = await modelChoices(deps.models);
  if (own && !refs.includes(own)) refs.push(own);
  return [
    {
      id: MODE_OPTION,
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: currentMode(events, deps.permissionMode),
      options: ACP_MODES.map(({ id, name, description }) => ({ value: id, name, description })),
    },
    {
      id: MODEL_OPTION,
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: own ?? DEFAULT_MODEL,
      options: [
        {
          value: DEFAULT_MODEL,
          name: selected ? `Default (${selected})` : 'Default (no model is set up)',
          description: "The app's model, as Settings and configs/app.json choose it",
        },
        ...refs.map((ref) => ({ value: ref, name: ref })),
      ],
    },
  ];
}

/** `session/set_config_option`: one of the values the option offers, logged as the app logs it. */
export async function setConfigOption(
  session: Session,
  configId: string,
  value: unknown,
  deps: ConfigDeps,
): Promise<SessionConfigOption[]> {
  const options = await configOptions(session, deps);
  const option = options.find((o) => o.id === configId);
  if (!option)
    throw RequestError.invalidParams(
      { configId },
      `no config option '${configId}': one of ${options.map((o) => o.id).join(', ')}`,
    );
  const values =
    option.type === 'select' ? option.options.flatMap((o) => ('value' in o ? [o.value] : [])) : [];
  if (typeof value !== 'string' || !values.includes(value))
    throw RequestError.invalidParams(
      { configId, value },
      `'${String(value)}' is not a value of ${configId}: one of ${values.join(', ')}`,
    );
  if (configId === MODE_OPTION) await deps.agent.setMode(session, value as PermissionMode);
  else await deps.agent.setModel(session, value === DEFAULT_MODEL ? null : value);
  return configOptions(session, deps);
}
