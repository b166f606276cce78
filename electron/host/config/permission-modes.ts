// The permission modes a session runs in. Apart from the config schema (schema.ts, which builds
// its enum from this list) so a command that only checks a --permission-mode flag, or shares
// command.ts's argument helpers with one (serve), loads no zod schema at start.

export const PERMISSION_MODES = ['ask', 'accept-edits', 'auto', 'plan'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];
