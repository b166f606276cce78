import type { ClientCapability } from '../../../shared/protocol/capabilities';
import type { RemoteVia, SessionEventOf } from '../../../shared/protocol/events';
import type { AppConfig } from '../config/schema';
import { HostError } from '../rpc/host-error';
import type { Session } from '../sessions/session';
import type { SessionManager } from '../sessions/session-manager';
import type { QuestionAnswer } from './interaction';
import { checkAnswer } from './question-format';
import { isConnectionApproval } from './network-approval';
import { checkContent } from '../../../shared/mcp/elicitation-form';
import type { ElicitationAnswer } from '../mcp/elicitation';
import type { RulesService } from '../rules/rules-service';
import type { RuleScope } from '../rules/settings-sources';
import type { SessionWaits } from './run-context';
import {
  findApproval,
  findElicitation,
  findPlan,
  findQuestion,
  modeBeforePlan,
  openElicitations,
  openQuestions,
  pendingApprovals,
  pendingPlans,
} from './session-state';

// The user's side of the waits: answering a question, deciding an approval or a plan. Each
// decision is an event first; then the waiting call gets it in place, or (nothing waits: the run
// ended, or the host restarted) a run is started that picks it up from the log.

const NEW_MESSAGE = 'the user sent a new message instead';
const STOPPED = 'the run was stopped';

export interface DecisionDeps {
  sessions: SessionManager;
  config: AppConfig;
  state(session: Session): {
    waits: SessionWaits;
    ready: Promise<void>;
    capabilities: ClientCapability[];
  };
  resume(session: Session): void;
  /** "Always allow" writes its rule here. */
  rules?: RulesService;
}

export interface PendingView {
  approvals: SessionEventOf<'approval_request'>[];
  questions: SessionEventOf<'question'>[];
  plans: SessionEventOf<'plan'>[];
  /** MCP elicitations whose server still waits (a card the user can answer). */
  elicitations: SessionEventOf<'elicitation'>[];
}

export class AgentDecisions {
  /**
   * Decisions being logged right now. The log check alone lets two decisions sent at the same
   * instant both pass (neither append has landed yet); the first to claim wins, the other is
   * refused as already decided. A claim ends once its event is in the log, which then answers.
   */
  private readonly inFlight = new Set<string>();

  constructor(private readonly deps: DecisionDeps) {}

  private async once<T>(key: string, refusal: () => HostError, fn: () => Promise<T>): Promise<T> {
    if (this.inFlight.has(key)) throw refusal();
    this.inFlight.add(key);
    try {
      return await fn();
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** `capabilities`: the deciding client's, for a run the decision may start (kept otherwise). */
  private async open(sessionId: string, capabilities?: ClientCapability[]) {
    const session = await this.deps.sessions.get(sessionId);
    const st = this.deps.state(session);
    await st.ready;
    if (capabilities) st.capabilities = [...capabilities];
    return { session, waits: st.waits };
  }

  async pending(sessionId: string): Promise<PendingView> {
    const { session } = await this.open(sessionId);
    const events = session.events();
    return {
      approvals: pendingApprovals(events),
      questions: openQuestions(events),
      plans: pendingPlans(events),
      elicitations: openElicitations(events),
    };
  }

  async answerQuestion(
    sessionId: string,
    questionId: string,
    answer: QuestionAnswer,
    capabilities?: ClientCapability[],
    via?: RemoteVia,
  ): Promise<{ delivery: 'in_place' | 'late' }> {
    const { session, waits } = await this.open(sessionId, capabilities);
    const { question, answer: prior } = findQuestion(session.events(), questionId);
    if (!question)
      throw new HostError('not_found', `no question '${questionId}' in session ${sessionId}`);
    if (prior)
      throw new HostError('already_answered', `question '${questionId}' was already answered`);
    const bad = checkAnswer(question.questions, answer);
    if (bad) throw new HostError('invalid_answer', bad);
    return this.once(
      `${sessionId}:q:${questionId}`,
      () => new HostError('already_answered', `question '${questionId}' was already answered`),
      async () => {
        // Resolved first: the waiting call continues a microtask later, after this append was issued
        // (so the answer is logged before the result), and an expiry cannot slip in between.
        const live = waits.questions.resolve(questionId, { status: 'answered', answer });
        await session.append({
          type: 'question_answer',
          question_id: questionId,
          answer,
          delivery: live ? 'in_place' : 'late',
          ...(via ? { via } : {}),
        });
        if (live) return { delivery: 'in_place' as const };
        this.deps.resume(session);
        return { delivery: 'late' as const };
      },
    );
  }

  /**
   * The user's answer to an MCP server's elicitation. An accepted form is checked against its
   * schema here too (a client may be wrong or hostile); only a server still waiting is answered.
   */
  async answerElicitation(
    sessionId: string,
    elicitationId: string,
    answer: ElicitationAnswer,
    via?: RemoteVia,
  ): Promise<void> {
    const { session, waits } = await this.open(sessionId);
    const { elicitation, answer: prior } = findElicitation(session.events(), elicitationId);
    if (!elicitation)
      throw new HostError('not_found', `no elicitation '${elicitationId}' in session ${sessionId}`);
    const already = () =>
      new HostError('already_answered', `MCP server '${elicitation.server}' was already answered`);
    if (prior) throw already();
    let given: ElicitationAnswer = { action: answer.action } as ElicitationAnswer;
    if (answer.action === 'accept' && elicitation.form) {
      const content = answer.content ?? {};
      const bad = checkContent(elicitation.form, content);
      if (bad) throw new HostError('invalid_answer', bad);
      given = { action: 'accept', content };
    }
    if (!waits.elicitations.has(elicitationId))
      throw new HostError(
        'not_found',
        `MCP server '${elicitation.server}' no longer waits for this answer`,
      );
    await this.once(`${sessionId}:e:${elicitationId}`, already, async () => {
      // As for answers: resolved first, logged before the server hears it (a microtask later).
      waits.elicitations.resolve(elicitationId, given);
      await session.append({
        type: 'elicitation_answer',
        elicitation_id: elicitationId,
        action: given.action,
        ...(given.action === 'accept' && given.content ? { content: given.content } : {}),
        ...(via ? { via } : {}),
      });
    });
  }

  async decideApproval(
    sessionId: string,
    approvalId: string,
    decision: 'allow' | 'deny',
    reason?: string,
    capabilities?: ClientCapability[],
    always?: RuleScope,
    via?: RemoteVia,
    /** One of an external agent's options (approval_request.options), by id. */
    option?: string,
  ): Promise<void> {
    const { session, waits } = await this.open(sessionId, capabilities);
    const { request, decision: prior } = findApproval(session.events(), approvalId);
    if (!request)
      throw new HostError('not_found', `no approval '${approvalId}' in session ${sessionId}`);
    if (prior)
      throw new HostError(
        'already_decided',
        `approval '${approvalId}' was already decided (${prior.decision})`,
      );
    const chosen = agentOption(request, decision, option);
    const why = reason?.trim() || undefined;
    const added =
      always && decision === 'allow' && !chosen
        ? await this.alwaysAllow(session, request, always)
        : undefined;
    const verdict =
      decision === 'allow'
        ? ({ allow: true, ...(chosen ? { option: chosen } : {}) } as const)
        : ({
            allow: false,
            reason: why ?? '',
            by: 'user',
            ...(chosen ? { option: chosen } : {}),
          } as const);
    await this.once(
      `${sessionId}:a:${approvalId}`,
      () => new HostError('already_decided', `approval '${approvalId}' was already decided`),
      async () => {
        // As for answers: resolved first, logged before the call runs (it continues a microtask later).
        const live = waits.approvals.resolve(approvalId, verdict);
        await session.append({
          type: 'approval_decision',
          approval_id: approvalId,
          decision,
          ...(why ? { reason: why } : {}),
          by: 'user',
          ...(added ? { always: added } : {}),
          ...(via ? { via } : {}),
          ...(chosen ? { option: chosen } : {}),
        });
        if (!live) this.deps.resume(session);
      },
    );
  }

  /** "Always allow": the approval's suggested rule joins the chosen scope before the call runs. */
  private async alwaysAllow(
    session: Session,
    request: SessionEventOf<'approval_request'>,
    scope: RuleScope,
  ): Promise<{ rule: string; scope: RuleScope }> {
    const rules = this.deps.rules;
    if (!rules) throw new HostError('unavailable', 'permission rules are not available here');
    const rule = request.suggested_rule;
    if (!rule)
      throw new HostError('no_rule', 'no rule can safely cover this call: approve it once instead');
    // A project on an SSH host has its settings file there; the desktop's folder of the same path
    // is another project (often the user's own checkout of it), which such a rule must not reach.
    if (scope === 'project' && session.meta.remote)
      throw new HostError(
        'rule_failed',
        `this project is on an SSH host (${session.meta.remote}), and the app does not write its settings file there: allow it for this session or everywhere, or add ${rule} to the project's .mewbo/settings.json on the host`,
      );
    try {
      await rules.addRule(scope, 'allow', rule, { root: session.meta.root, sessionId: session.id });
    } catch (err) {
      throw new HostError('rule_failed', (err as Error).message);
    }
    return { rule, scope };
  }

  async decidePlan(
    sessionId: string,
    planId: string,
    decision: 'approve' | 'reject',
    feedback?: string,
    capabilities?: ClientCapability[],
  ): Promise<void> {
    const { session, waits } = await this.open(sessionId, capabilities);
    const { plan, decision: prior } = findPlan(session.events(), planId);
    if (!plan) throw new HostError('not_found', `no plan '${planId}' in session ${sessionId}`);
    if (prior)
      throw new HostError(
        'already_decided',
        `plan '${planId}' was already decided (${prior.decision})`,
      );
    const note = feedback?.trim() || undefined;
    await this.once(
      `${sessionId}:p:${planId}`,
      () => new HostError('already_decided', `plan '${planId}' was already decided`),
      async () => {
        await session.append({
          type: 'plan_decision',
          plan_id: planId,
          decision,
          ...(note ? { feedback: note } : {}),
        });
        if (decision === 'approve') {
          await session.append({
            type: 'mode_change',
            mode: modeBeforePlan(session.events(), this.deps.config.permission_mode),
          });
        }
        if (!waits.plans.resolve(planId, { decision, feedback: note })) this.deps.resume(session);
      },
    );
  }

  /** A new message while the live run waits on the user: every wait is superseded. */
  async supersedeWaits(session: Session, st: { waits: SessionWaits }): Promise<void> {
    for (const id of st.waits.questions.ids()) {
      await session.append({ type: 'question_superseded', question_id: id });
      st.waits.questions.resolve(id, { status: 'superseded' });
    }
    for (const id of st.waits.elicitations.ids()) {
      await session.append({
        type: 'elicitation_answer',
        elicitation_id: id,
        action: 'cancel',
        reason: NEW_MESSAGE,
      });
      st.waits.elicitations.resolve(id, { action: 'cancel' });
    }
    for (const id of st.waits.approvals.ids()) {
      await session.append({
        type: 'approval_decision',
        approval_id: id,
        decision: 'deny',
        reason: NEW_MESSAGE,
        by: 'user',
      });
      st.waits.approvals.resolve(id, { allow: false, reason: NEW_MESSAGE, by: 'user' });
    }
    for (const id of st.waits.plans.ids()) {
      await session.append({
        type: 'plan_decision',
        plan_id: id,
        decision: 'reject',
        feedback: NEW_MESSAGE,
      });
      st.waits.plans.resolve(id, { decision: 'superseded' });
    }
  }

  /** A new message with no live run: approvals and plans left pending by a restart are superseded. */
  async supersedeLeftovers(session: Session): Promise<void> {
    await this.closeLeftovers(session, NEW_MESSAGE, 'user');
  }

  async stopLeftovers(session: Session): Promise<void> {
    await this.closeLeftovers(session, STOPPED, 'policy');
  }

  /**
   * A stop of a live run: the connections of the session's shells held for a decision are refused
   * too (they would outlive the run, keeping the session waiting after the user stopped it).
   */
  async stopConnections(session: Session): Promise<void> {
    await this.closeLeftovers(session, STOPPED, 'policy', isConnectionApproval);
  }

  private async closeLeftovers(
    session: Session,
    reason: string,
    by: 'user' | 'policy',
    only?: (request: SessionEventOf<'approval_request'>) => boolean,
  ): Promise<void> {
    const events = session.events();
    const { waits } = this.deps.state(session);
    for (const a of pendingApprovals(events).filter(only ?? (() => true))) {
      await session.append({
        type: 'approval_decision',
        approval_id: a.approval_id,
        decision: 'deny',
        reason,
        by,
      });
      // With no run, only a connection can be waiting on it (network-approval.ts).
      waits.approvals.resolve(a.approval_id, { allow: false, reason, by });
    }
    if (only) return;
    for (const p of pendingPlans(events)) {
      await session.append({
        type: 'plan_decision',
        plan_id: p.plan_id,
        decision: 'reject',
        feedback: reason,
      });
    }
  }
}

/**
 * The external agent's option a decision picks: the one named (its kind must agree with the
 * decision), else the agent's "once" choice for allow or deny. Undefined for the app's own calls.
 */
function agentOption(
  request: SessionEventOf<'approval_request'>,
  decision: 'allow' | 'deny',
  option: string | undefined,
): string | undefined {
  const options = request.options;
  if (!options?.length) {
    if (option)
      throw new HostError('bad_option', 'this approval offers no options: use allow or deny');
    return undefined;
  }
  const side = decision === 'allow' ? 'allow' : 'reject';
  if (option) {
    const named = options.find((o) => o.id === option);
    if (!named)
      throw new HostError(
        'bad_option',
        `no option '${option}'; this approval offers: ${options.map((o) => o.id).join(', ')}`,
      );
    if (!named.kind.startsWith(side))
      throw new HostError('bad_option', `option '${option}' (${named.name}) does not ${decision}`);
    return named.id;
  }
  return (
    options.find((o) => o.kind === `${side}_once`) ?? options.find((o) => o.kind.startsWith(side))
  )?.id;
}
