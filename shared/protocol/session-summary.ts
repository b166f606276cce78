import { z } from 'zod';

export const runStateSchema = z.enum(['idle', 'running', 'waiting', 'stopped', 'failed']);

export const sessionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  project: z.string().nullable(),
  root: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
  event_count: z.number().int(),
  run_state: runStateSchema,
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;
