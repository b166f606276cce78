import type { AgentChoice } from '../../../../shared/protocol/commands/agents';
import type { AppConfig, ExternalAgentConfig } from '../../config/schema';
import { resolveExecutable } from '../../lsp/resolve-command';

// Which external ACP agents a session can be bound to: the user's `agents.NAME` entries, and the
// presets of the agents editors host today, each offered only once its command is on PATH (off
// until the user installs it; nothing is downloaded for them). A user entry with a preset's name
// replaces the preset.

interface Preset extends ExternalAgentConfig {
  label: string;
}

const PRESETS: Record<string, Preset> = {
  'claude-code': {
    label: 'Claude Code',
    command: 'claude-code-acp',
    args: [],
    env: {},
    pass_env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'CLAUDE_CODE_OAUTH_TOKEN'],
    network: ['api.anthropic.com', 'statsig.anthropic.com'],
    disabled: false,
  },
  codex: {
    label: 'Codex',
    command: 'codex-acp',
    args: [],
    env: {},
    pass_env: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CODEX_HOME'],
    network: ['api.openai.com', 'chatgpt.com', 'auth.openai.com'],
    disabled: false,
  },
  gemini: {
    label: 'Gemini CLI',
    command: 'gemini',
    args: ['--experimental-acp'],
    env: {},
    pass_env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_CLOUD_PROJECT'],
    network: [
      'generativelanguage.googleapis.com',
      'oauth2.googleapis.com',
      'cloudcode-pa.googleapis.com',
    ],
    disabled: false,
  },
};

export interface AvailableAgent {
  name: string;
  label: string;
  config: ExternalAgentConfig;
  preset: boolean;
}

/** The agents a session may run on now, by name: the user's (enabled), then presets on PATH. */
export function availableAgents(
  config: Pick<AppConfig, 'agents'>,
  env: NodeJS.ProcessEnv,
): Map<string, AvailableAgent> {
  const out = new Map<string, AvailableAgent>();
  for (const [name, agent] of Object.entries(config.agents)) {
    if (!agent.disabled) out.set(name, { name, label: name, config: agent, preset: false });
  }
  for (const [name, { label, ...preset }] of Object.entries(PRESETS)) {
    if (name in config.agents) continue;
    if (resolveExecutable(preset.command, '/', { before: [], after: [], path: env.PATH ?? '' }))
      out.set(name, { name, label, config: preset, preset: true });
  }
  return out;
}

/**
 * Every agent "New session" offers, runnable or not: the user's entries (a disabled one off, with
 * why), then each preset the user did not replace (off until its command is on PATH, with what to
 * install). The app's own agent is not listed: it is always there.
 */
export function listAgents(
  config: Pick<AppConfig, 'agents'>,
  env: NodeJS.ProcessEnv,
): AgentChoice[] {
  const on = availableAgents(config, env);
  const out: AgentChoice[] = Object.entries(config.agents).map(([name, agent]) => ({
    name,
    label: name,
    command: agent.command,
    preset: false,
    available: on.has(name),
    ...(on.has(name) ? {} : { reason: 'disabled in configs/app.json' }),
  }));
  for (const [name, preset] of Object.entries(PRESETS)) {
    if (name in config.agents) continue;
    out.push({
      name,
      label: preset.label,
      command: preset.command,
      preset: true,
      available: on.has(name),
      ...(on.has(name)
        ? {}
        : {
            reason: `'${preset.command}' is not on PATH: install ${preset.label}'s ACP agent first`,
          }),
    });
  }
  return out;
}

/** The agent `name`, or an error that says which names there are and how to add one. */
export function findAgent(
  config: Pick<AppConfig, 'agents'>,
  env: NodeJS.ProcessEnv,
  name: string,
): AvailableAgent | { error: string } {
  const agents = availableAgents(config, env);
  const agent = agents.get(name);
  if (agent) return agent;
  const known = [...agents.keys()];
  const preset = PRESETS[name];
  const why = preset
    ? `its command '${preset.command}' is not on PATH (install ${preset.label} first)`
    : config.agents[name]?.disabled
      ? 'it is disabled in configs/app.json'
      : 'there is no such agent';
  return {
    error: `no agent '${name}': ${why}. ${known.length ? `Agents: ${known.join(', ')}.` : 'None is available.'} Add one as agents.NAME = { "command": ..., "args": [...] } in configs/app.json.`,
  };
}
