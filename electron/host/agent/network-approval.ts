import type { SessionEventOf } from '../../../shared/protocol/events';
import { NETWORK_RULE } from '../rules/rule';
import { hostKey } from '../network/host-name';
import type { AskAnswer, NetworkAsk } from '../network/session-network';
import type { Session } from '../sessions/session';
import type { SessionManager } from '../sessions/session-manager';
import type { SessionAgentState } from './create-run-context';
import { newApprovalId } from './ids';
import { findApproval, pendingApprovals } from './session-state';

// A connection to a new destination, put to the user as an approval like any other (issue #25
// part 1): the card in the conversation and on a phone with remote rights (the session shows
// `waiting` meanwhile), Approve for this connection (and those waiting with it), "Always allow"
// adding Network(destination) to the session, the project's .mewbo/settings.json or
// configs/app.json through the rules service's writer (which never follows a link). The
// connection waits in the proxy meanwhile; the policy reads the rules again for the next one, so
// an added rule spares the next ask. Its request and decision are in the log like any other.

export interface NetworkApprovalDeps {
  sessions: SessionManager;
  /** The session's agent state (AgentService.state): its waits and whether it runs headless. */
  state(session: Session): SessionAgentState;
  /** Shows the session as waiting on the user until the returned function is called. */
  beginWait(session: Session, reason: string): () => void;
}

/** The tool name network approvals carry (their card's title, and the rule's tool). */
export const NETWORK_APPROVAL_TOOL = NETWORK_RULE;

/** No model call asked for a connection: its approval's call id says so, tied to no tool card. */
const CALL_PREFIX = 'net_';

/** Whether an approval is a connection's (no tool call waits on it; its connection may be gone). */
export function isConnectionApproval(request: SessionEventOf<'approval_request'>): boolean {
  return request.tool === NETWORK_APPROVAL_TOOL && request.call_id.startsWith(CALL_PREFIX);
}

/**
 * On opening a session with no run: a connection that waited for a decision ended with the
 * process that held it, so its approval is closed (a later Approve would let nothing through).
 */
export async function closeOrphanedConnectionApprovals(session: Session): Promise<void> {
  for (const request of pendingApprovals(session.events()).filter(isConnectionApproval))
    await session.append({
      type: 'approval_decision',
      approval_id: request.approval_id,
      decision: 'deny',
      reason: 'the connection ended when the app stopped',
      by: 'policy',
    });
}

export class NetworkApprovals {
  constructor(private readonly deps: NetworkApprovalDeps) {}

  /** Whether anyone can be asked for this session: not in a headless run (`mewbo run`). */
  canAsk(session: Session): boolean {
    return !this.deps.state(session).headless;
  }

  /** Asks, and waits for the decision; `signal` ends the wait (the connection left, a timeout). */
  async ask(sessionId: string, request: NetworkAsk, signal: AbortSignal): Promise<AskAnswer> {
    const session = await this.deps.sessions.get(sessionId);
    const { waits } = this.deps.state(session);
    const destination = hostKey(request.host);
    const approval_id = newApprovalId();
    const from = request.shellId ? `shell ${request.shellId}` : 'a process of this session';
    await session.append({
      type: 'approval_request',
      approval_id,
      call_id: `${CALL_PREFIX}${approval_id}`,
      tool: NETWORK_APPROVAL_TOOL,
      summary: `connect to ${destination}:${request.port}`,
      detail: `${from} wants to connect to ${destination} on port ${request.port}, through this session's egress proxy. It waits for your answer.\n\nApprove lets this connection through. Always allow adds ${NETWORK_RULE}(${destination}) for this session, this project or everywhere; until then each new connection to ${destination} asks again.`,
      suggested_rule: `${NETWORK_RULE}(${destination})`,
    });
    const done = this.deps.beginWait(session, 'approval');
    try {
      const verdict = await waits.approvals.wait(approval_id, signal);
      if (verdict.allow) return { allow: true };
      if (verdict.by === 'policy') return { allow: false, reason: verdict.reason };
      return {
        allow: false,
        reason: verdict.reason ? `the user denied it: ${verdict.reason}` : 'the user denied it',
      };
    } catch (err) {
      const reason = (err as Error)?.message ?? String(err);
      // A stop or a new message may have closed it in the log already.
      if (!findApproval(session.events(), approval_id).decision)
        await session.append({
          type: 'approval_decision',
          approval_id,
          decision: 'deny',
          reason,
          by: 'policy',
        });
      return { allow: false, reason };
    } finally {
      done();
    }
  }
}
