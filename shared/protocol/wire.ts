import { z } from 'zod';

// The frames both transports carry. The WebSocket sends them as JSON text; Electron IPC passes
// the same objects through the preload's invoke/subscribe.

export const clientFrameSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('invoke'),
    id: z.number().int(),
    method: z.string(),
    params: z.unknown(),
  }),
  z.object({
    t: z.literal('subscribe'),
    sub: z.number().int(),
    topic: z.string(),
    cursor: z.number().int().min(0).optional(),
  }),
  z.object({ t: z.literal('unsubscribe'), sub: z.number().int() }),
  /** Flow control: the client has consumed `n` more units (characters, for shell streams). */
  z.object({ t: z.literal('ack'), sub: z.number().int(), n: z.number().int().min(0) }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export const rpcErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** Validation failures name the field. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type RpcError = z.infer<typeof rpcErrorSchema>;

export type HostFrame =
  | { t: 'result'; id: number; ok: true; value: unknown }
  | { t: 'result'; id: number; ok: false; error: RpcError }
  | { t: 'event'; sub: number; data: unknown }
  | { t: 'sub_error'; sub: number; error: RpcError }
  | { t: 'error'; error: RpcError };
