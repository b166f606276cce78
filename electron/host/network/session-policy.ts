import { currentMode } from '../agent/session-state';
import type { AppConfig } from '../config/schema';
import type { RulesService } from '../rules/rules-service';
import type { Session } from '../sessions/session';
import type { SessionManager } from '../sessions/session-manager';
import type { SessionPolicy } from './network-service';

// What the proxy's policy reads of a session in the app, per connection: its rules from every
// scope (the session's own, the trusted project's settings files, configs/app.json), its mode
// now (a mode change applies to the next connection), and whether someone can be asked (not in a
// headless run).

export interface SessionPolicyDeps {
  sessions: SessionManager;
  rules: RulesService;
  config: AppConfig;
  canAsk(session: Session): boolean;
}

export function sessionPolicy(
  deps: SessionPolicyDeps,
): (sessionId: string, root: string) => Promise<SessionPolicy> {
  return async (sessionId, root) => {
    const session = await deps.sessions.get(sessionId);
    const { rules } = await deps.rules.load(root, sessionId);
    return {
      rules,
      mode: currentMode(session.events(), deps.config.permission_mode),
      canAsk: deps.canAsk(session),
    };
  };
}
