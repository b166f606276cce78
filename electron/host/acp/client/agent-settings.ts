import type * as acp from '@agentclientprotocol/sdk';
import type { AgentOption, SessionEvent, SessionEventOf } from '../../../../shared/protocol/events';
import type { PermissionModeWire } from '../../../../shared/protocol/common';

// An external agent's own modes and session settings (issue 30): ACP's SessionModeState and
// SessionConfigOption as the session's `agent_modes` / `agent_options` events the header draws,
// the app's permission modes matched to the mode ids agents commonly use for them, and the
// mode the log says the agent should be in (what the user chose last, in either select).

/** The app's permission modes and the mode ids agents commonly use for them. */
const MODE_IDS: Record<PermissionModeWire, readonly string[]> = {
  ask: ['ask', 'default'],
  'accept-edits': ['accept-edits', 'acceptEdits', 'accept_edits'],
  auto: ['auto', 'bypassPermissions', 'yolo', 'full-access'],
  plan: ['plan'],
};

/** The agent's mode for the app's `mode`, from the modes it offers; null when it has none like it. */
export function agentModeFor(mode: PermissionModeWire, offered: readonly string[]): string | null {
  return MODE_IDS[mode].find((id) => offered.includes(id)) ?? null;
}

/** The app's permission mode an agent's mode stands for; null for a mode of its own. */
export function appModeFor(agentMode: string): PermissionModeWire | null {
  for (const [mode, ids] of Object.entries(MODE_IDS))
    if (ids.includes(agentMode)) return mode as PermissionModeWire;
  return null;
}

export function modesEvent(
  state: acp.SessionModeState,
): Omit<SessionEventOf<'agent_modes'>, 'seq' | 'ts'> {
  return {
    type: 'agent_modes',
    current: state.currentModeId,
    modes: state.availableModes.map((m) => ({
      id: m.id,
      name: m.name,
      ...(m.description ? { description: m.description } : {}),
    })),
  };
}

export function optionsEvent(
  options: readonly acp.SessionConfigOption[],
): Omit<SessionEventOf<'agent_options'>, 'seq' | 'ts'> {
  return { type: 'agent_options', options: options.map(toOption) };
}

function toOption(o: acp.SessionConfigOption): AgentOption {
  const common = {
    id: o.id,
    name: o.name,
    ...(o.description ? { description: o.description } : {}),
    ...(o.category ? { category: o.category } : {}),
  };
  if (o.type === 'boolean') return { type: 'boolean', ...common, current: o.currentValue };
  return { type: 'select', ...common, current: o.currentValue, choices: choicesOf(o) };
}

/** A select's values, its groups flattened (each value keeps its group's name). */
function choicesOf(o: acp.SessionConfigSelect) {
  return o.options.flatMap((c) =>
    'group' in c
      ? c.options.map((v) => ({ ...choice(v), group: c.name }))
      : [choice(c as acp.SessionConfigSelectOption)],
  );
}

function choice(v: acp.SessionConfigSelectOption) {
  return { value: v.value, name: v.name, ...(v.description ? { description: v.description } : {}) };
}

/**
 * The mode the agent should be in by the log: the one the agent last reported or the user last
 * picked in its select, unless the user changed the app's mode after it (then its match).
 */
export function wantedAgentMode(
  events: readonly SessionEvent[],
  offered: readonly string[],
): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'agent_modes') return offered.includes(e.current) ? e.current : null;
    if (e.type === 'mode_change') return agentModeFor(e.mode, offered);
  }
  return null;
}

/** A value for a session setting, checked against what the agent offers: the request, or why not. */
export function configRequest(
  options: readonly acp.SessionConfigOption[] | null,
  configId: string,
  value: string | boolean,
): { ok: { configId: string; value: string | boolean; boolean: boolean } } | { error: string } {
  const option = options?.find((o) => o.id === configId);
  if (!option) return { error: `the agent has no setting '${configId}'` };
  if (option.type === 'boolean')
    return typeof value === 'boolean'
      ? { ok: { configId, value, boolean: true } }
      : { error: `the agent's setting '${option.name}' is on or off (true or false)` };
  const values = choicesOf(option).map((c) => c.value);
  return typeof value === 'string' && values.includes(value)
    ? { ok: { configId, value, boolean: false } }
    : { error: `the agent's setting '${option.name}' takes one of: ${values.join(', ')}` };
}
