import type { AppConfig } from '../config/schema';
import { listAgents } from '../acp/client/agent-presets';
import type { ExternalTurns } from '../acp/client/external-turns';
import type { HandlerMap } from '../rpc/router';
import { HostError } from '../rpc/host-error';
import type { SessionManager } from '../sessions/session-manager';

export interface AgentsHandlerDeps {
  config: Pick<AppConfig, 'agents'>;
  env: NodeJS.ProcessEnv;
  sessions: Pick<SessionManager, 'get'>;
  external: Pick<ExternalTurns, 'setAgentMode' | 'setAgentOption'>;
}

/**
 * The external agents a session can run on (read from the live config and PATH at each call),
 * and the modes and settings of the one a session runs on.
 */
export function agentsHandlers({
  config,
  env,
  sessions,
  external,
}: AgentsHandlerDeps): Pick<HandlerMap, 'agents.list' | 'agents.setMode' | 'agents.setOption'> {
  const bound = async (id: string) => {
    const session = await sessions.get(id);
    if (!session.meta.agent)
      throw new HostError(
        'no_agent',
        'this session runs the app’s own agent: its mode is the permission mode (sessions.setMode)',
      );
    return session;
  };
  return {
    'agents.list': async () => ({ agents: listAgents(config, env) }),
    'agents.setMode': async (req) => {
      await external.setAgentMode(await bound(req.id), req.mode);
      return { ok: true as const };
    },
    'agents.setOption': async (req) => {
      await external.setAgentOption(await bound(req.id), req.option, req.value);
      return { ok: true as const };
    },
  };
}
