import type { AgentDecisions } from '../agent/decisions';
import type { ModelSettings } from '../models/model-settings';
import { HostError } from '../rpc/host-error';
import type { HandlerMap } from '../rpc/router';

type AgentHandlers = Pick<
  HandlerMap,
  | 'agent.answerQuestion'
  | 'agent.answerElicitation'
  | 'agent.decideApproval'
  | 'agent.decidePlan'
  | 'agent.pending'
  | 'models.status'
  | 'models.setSettings'
  | 'models.setKey'
  | 'models.deleteKey'
  | 'models.list'
>;

export function agentHandlers(decisions: AgentDecisions, models: ModelSettings): AgentHandlers {
  return {
    'agent.answerQuestion': async (req) =>
      decisions.answerQuestion(
        req.id,
        req.question_id,
        { answers: req.answers, ...(req.notes !== undefined ? { notes: req.notes } : {}) },
        req.capabilities,
      ),
    'agent.answerElicitation': async (req) => {
      await decisions.answerElicitation(req.id, req.elicitation_id, {
        action: req.action,
        ...(req.content !== undefined ? { content: req.content } : {}),
      });
      return { ok: true as const };
    },
    'agent.decideApproval': async (req) => {
      await decisions.decideApproval(
        req.id,
        req.approval_id,
        req.decision,
        req.reason,
        req.capabilities,
        req.always,
        undefined,
        req.option,
      );
      return { ok: true as const };
    },
    'agent.decidePlan': async (req) => {
      await decisions.decidePlan(req.id, req.plan_id, req.decision, req.feedback, req.capabilities);
      return { ok: true as const };
    },
    'agent.pending': async (req) => decisions.pending(req.id),
    'models.status': async () => models.status(),
    'models.setSettings': async (req) => {
      try {
        await models.update(req);
      } catch (err) {
        throw new HostError('invalid_settings', (err as Error).message);
      }
      return models.status();
    },
    'models.setKey': async (req) => {
      await models.setKey(req.provider, req.key);
      return { ok: true as const };
    },
    'models.deleteKey': async (req) => {
      await models.deleteKey(req.provider);
      return { ok: true as const };
    },
    'models.list': async (req) => {
      try {
        return { models: await models.listModels(req.provider) };
      } catch (err) {
        throw new HostError(
          'provider_unreachable',
          `could not list ${req.provider} models: ${(err as Error).message}`,
        );
      }
    },
  };
}
