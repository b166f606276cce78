// zod/mini: the phone page bundles these schemas, and mini keeps that bundle ~20x smaller.
import * as z from 'zod/mini';
import {
  DEVICE_TOOL_ID_PATTERN,
  MAX_DECLARED_TOOLS,
  MAX_DEVICE_NAME_CHARS,
  MAX_ID_CHARS,
  MAX_TOOL_DESCRIPTION_CHARS,
} from './limits';
import { REMOTE_REQUEST_TYPES, remoteHostFrameSchema, rightsSchema } from './remote-frames';

// The device wire protocol (DESIGN "Phone pairing"): JSON text frames over wss, a discriminated
// union on `type` each way. Unknown keys are dropped, not rejected, so a newer client still talks
// to an older host. electron/host/devices/PROTOCOL.md is the prose version with an example.

const id = z.string().check(z.minLength(1), z.maxLength(MAX_ID_CHARS));

/** One entry of a declaration. The host also checks `parameters` is a JSON Schema it can use. */
export const declaredToolSchema = z.object({
  tool_id: z
    .string()
    .check(z.regex(DEVICE_TOOL_ID_PATTERN, `must match ${DEVICE_TOOL_ID_PATTERN.source}`)),
  description: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'must be a non-empty string'),
      z.maxLength(MAX_TOOL_DESCRIPTION_CHARS),
    ),
  parameters: z.record(z.string(), z.unknown(), 'must be a JSON Schema object'),
});
export type DeclaredTool = z.infer<typeof declaredToolSchema>;

export const pairFrameSchema = z.object({
  type: z.literal('pair'),
  code: z.string().check(z.minLength(1), z.maxLength(32)),
  device_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_DEVICE_NAME_CHARS)),
});

export const helloFrameSchema = z.object({ type: z.literal('hello'), device_id: id, token: id });

/** Entries stay `unknown` here so a bad one is reported by index (see declaration rules). */
export const declareFrameSchema = z.object({
  type: z.literal('declare'),
  tools: z.array(z.unknown()).check(z.maxLength(MAX_DECLARED_TOOLS)),
});

export const deviceErrorSchema = z.object({
  code: z.string().check(z.minLength(1), z.maxLength(64)),
  message: z.string().check(z.maxLength(4000)),
});

const resultBase = { type: z.literal('device_tool_result'), call_id: id, call_token: id };
export const resultFrameSchema = z.discriminatedUnion('status', [
  z.object({ ...resultBase, status: z.literal('ok'), result: z.unknown() }),
  z.object({ ...resultBase, status: z.literal('error'), error: deviceErrorSchema }),
]);
export type ResultFrame = z.infer<typeof resultFrameSchema>;

/** Everything a phone may send. `device_tool_result` is checked on its own (400, not an error). */
export const phoneFrameSchema = z.union([
  pairFrameSchema,
  helloFrameSchema,
  declareFrameSchema,
  resultFrameSchema,
]);
export type PhoneFrame = z.infer<typeof phoneFrameSchema>;
export const PHONE_FRAME_TYPES = [
  'pair',
  'hello',
  'declare',
  'device_tool_result',
  ...REMOTE_REQUEST_TYPES,
] as const;

/** Error codes the host sends; clients should treat unknown codes as generic failures. */
export const DEVICE_ERROR_CODES = [
  'bad_code',
  'expired_code',
  'bad_token',
  'bad_frame',
  'not_authenticated',
  'already_authenticated',
  'bad_declaration',
  'rate_limited',
  'revoked',
  'replaced',
  'internal_error',
] as const;
export type DeviceErrorCode = (typeof DEVICE_ERROR_CODES)[number];

export const RESULT_ACK_CODES = [200, 400, 403, 404, 409] as const;
export type ResultAckCode = (typeof RESULT_ACK_CODES)[number];

const coreHostFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('paired'),
    device_id: id,
    token: id,
    rights: rightsSchema,
    remote_versions: z.array(z.number()),
  }),
  z.object({
    type: z.literal('welcome'),
    rights: rightsSchema,
    remote_versions: z.array(z.number()),
  }),
  /** The user changed this device's rights on the desktop (remote off also closes with 4005). */
  z.object({ type: z.literal('rights'), rights: rightsSchema }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({
    type: z.literal('device_tool_call'),
    call_id: id,
    call_token: id,
    tool_id: z.string(),
    args: z.unknown(),
    /** Milliseconds since the epoch (host clock) after which a result gets 404. */
    expires_at: z.number(),
  }),
  z.object({
    type: z.literal('result_ack'),
    /** null when the frame was too malformed to carry a call id. */
    call_id: z.nullable(z.string()),
    code: z.literal(RESULT_ACK_CODES),
  }),
]);
/** Everything the desktop may send: the core frames and the remote ones (remote-frames.ts). */
export const hostFrameSchema = z.discriminatedUnion('type', [
  coreHostFrameSchema,
  remoteHostFrameSchema,
]);
export type HostFrame = z.infer<typeof hostFrameSchema>;
export type HostFrameOf<T extends HostFrame['type']> = Extract<HostFrame, { type: T }>;
