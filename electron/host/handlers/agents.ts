import type { AppConfig } from '../config/schema';
import { listAgents } from '../acp/client/agent-presets';
import type { HandlerMap } from '../rpc/router';

/** The external agents a session can run on, read from the live config and PATH at each call. */
export function agentsHandlers(
  config: Pick<AppConfig, 'agents'>,
  env: NodeJS.ProcessEnv,
): Pick<HandlerMap, 'agents.list'> {
  return { 'agents.list': async () => ({ agents: listAgents(config, env) }) };
}
