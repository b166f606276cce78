import { z } from 'zod';
import { command } from '../command';
import { questionAnswerSchema, sessionEventSchema } from '../events';
import { clientCapabilitySchema } from '../capabilities';

// The user's side of a run (answers, approvals, plans) and the model settings: which model runs,
// where each provider is, its key (write-only: a key is never sent back, only a hint).

const id = z.string().min(1);
const ok = z.object({ ok: z.literal(true) });
const providerId = z.enum(['anthropic', 'openai', 'ollama']);
const valueSource = z.enum(['settings', 'config', 'env', 'default']);
/** What the deciding client can do: used when its decision starts a run (nothing was live, e.g. after a restart). */
const capabilities = z.array(clientCapabilitySchema).optional();

const modelSection = z.object({
  provider: providerId.optional(),
  name: z.string().optional(),
  context_window: z.number().int().optional(),
});

export const providerViewSchema = z.object({
  id: providerId,
  has_key: z.boolean(),
  key_source: valueSource.nullable(),
  key_hint: z.string().nullable(),
  base_url: z.string(),
  base_url_source: valueSource,
  model: z.string().nullable(),
});

export const modelsStatusSchema = z.object({
  /** The model a new run would use, and why; null when none is set. */
  selected: z
    .object({
      provider: providerId,
      model: z.string(),
      context_window: z.number().int(),
      reason: z.string(),
    })
    .nullable(),
  /** When nothing is selected: that no model is set, and how to set one. */
  message: z.string().nullable(),
  model: modelSection,
  providers: z.array(providerViewSchema),
});
export type ModelsStatusWire = z.infer<typeof modelsStatusSchema>;

export const agentCommands = {
  /** Option indexes or free text per question (never both), plus notes. Late answers start a run. */
  'agent.answerQuestion': command(
    () =>
      z.object({
        id,
        question_id: z.string().min(1),
        answers: questionAnswerSchema.shape.answers,
        notes: z.string().max(10_000).optional(),
        capabilities,
      }),
    () => z.object({ delivery: z.enum(['in_place', 'late']) }),
  ),
  /**
   * An MCP server's elicitation: accept (with the form's content, checked against its schema),
   * decline, or cancel. Only while its server still waits: an answer never starts a run.
   */
  'agent.answerElicitation': command(
    () =>
      z.object({
        id,
        elicitation_id: z.string().min(1),
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
          .optional(),
      }),
    () => ok,
  ),
  'agent.decideApproval': command(
    () =>
      z.object({
        id,
        approval_id: z.string().min(1),
        decision: z.enum(['allow', 'deny']),
        reason: z.string().max(2_000).optional(),
        /** With allow: also add the approval's suggested rule to this scope ("Always allow"). */
        always: z.enum(['session', 'project', 'user']).optional(),
        /** An external agent's approval: which of its options (approval_request.options) was picked. */
        option: z.string().min(1).max(200).optional(),
        capabilities,
      }),
    () => ok,
  ),
  'agent.decidePlan': command(
    () =>
      z.object({
        id,
        plan_id: z.string().min(1),
        decision: z.enum(['approve', 'reject']),
        feedback: z.string().max(10_000).optional(),
        capabilities,
      }),
    () => ok,
  ),
  /** What waits on the user in a session (a projection of its log). */
  'agent.pending': command(
    () => z.object({ id }),
    () =>
      z.object({
        approvals: z.array(sessionEventSchema),
        questions: z.array(sessionEventSchema),
        plans: z.array(sessionEventSchema),
        elicitations: z.array(sessionEventSchema),
      }),
  ),
  'models.status': command(
    () => z.object({}),
    () => modelsStatusSchema,
  ),
  /** null clears a value (back to the default). Keys are not set here: models.setKey. */
  'models.setSettings': command(
    () =>
      z.object({
        model: z
          .object({
            provider: providerId.nullable().optional(),
            name: z.string().nullable().optional(),
            context_window: z.number().int().min(1024).nullable().optional(),
          })
          .optional(),
        providers: z
          .object({
            anthropic: z
              .object({
                base_url: z.url().nullable().optional(),
                model: z.string().nullable().optional(),
                /** Changing base_url drops the stored key unless this enters it again. */
                api_key: z.string().trim().min(1).max(1_000).optional(),
              })
              .optional(),
            openai: z
              .object({
                base_url: z.url().nullable().optional(),
                model: z.string().nullable().optional(),
                /** Changing base_url drops the stored key unless this enters it again. */
                api_key: z.string().trim().min(1).max(1_000).optional(),
              })
              .optional(),
            ollama: z
              .object({
                base_url: z.url().nullable().optional(),
                model: z.string().nullable().optional(),
                /** Changing base_url drops the stored key unless this enters it again. */
                api_key: z.string().trim().min(1).max(1_000).optional(),
              })
              .optional(),
          })
          .optional(),
      }),
    () => modelsStatusSchema,
  ),
  'models.setKey': command(
    () => z.object({ provider: providerId, key: z.string().trim().min(1).max(1_000) }),
    () => ok,
  ),
  'models.deleteKey': command(
    () => z.object({ provider: providerId }),
    () => ok,
  ),
  /** The models a provider offers, asked of the provider itself. */
  'models.list': command(
    () => z.object({ provider: providerId }),
    () => z.object({ models: z.array(z.string()) }),
  ),
};
