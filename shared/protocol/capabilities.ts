import { z } from 'zod';

/** What a client can do, advertised when it drives a session; binding reads these. */
export const clientCapabilitySchema = z.enum(['generative_ui', 'ask_user', 'approvals']);
export type ClientCapability = z.infer<typeof clientCapabilitySchema>;
