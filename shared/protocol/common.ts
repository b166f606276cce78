import { z } from 'zod';

export const PROTOCOL_VERSION = 1;

export const permissionModeWire = z.enum(['ask', 'accept-edits', 'auto', 'plan']);
export type PermissionModeWire = z.infer<typeof permissionModeWire>;

export const sessionIdSchema = z.string().regex(/^s_[a-z0-9]{6,40}$/, 'not a session id');
