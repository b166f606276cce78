import { z } from 'zod';

// Payloads of aider_shell_tool ("shell") and shell_session_tool ("shell_session"), and the
// sandbox state every one of them carries so the UI can show it.

/** What a confined command reaches on the network. */
export const networkStatusSchema = z.discriminatedUnion('mode', [
  /**
   * Confined: TCP connects to these ports of this machine only (the session's egress proxy among
   * them); no other address, no UDP, no raw sockets.
   */
  z.object({ mode: z.literal('proxy'), connect_ports: z.array(z.number().int()) }),
  /** Not confined, and why: any address, any protocol. */
  z.object({ mode: z.literal('open'), reason: z.string() }),
]);
export type NetworkStatus = z.infer<typeof networkStatusSchema>;

/**
 * Whether the project's policy files (.mewbo/, .claude/, .mcp.json, .git/hooks, .git/config) are
 * read-only to a confined command.
 */
export const policyFilesStatusSchema = z.discriminatedUnion('mode', [
  /** Those that exist when the command starts are read-only to it. */
  z.object({ mode: z.literal('read_only') }),
  /** Writable like the rest of the project, and why. */
  z.object({ mode: z.literal('writable'), reason: z.string() }),
]);
export type PolicyFilesStatus = z.infer<typeof policyFilesStatusSchema>;

export const sandboxStatusSchema = z.discriminatedUnion('mode', [
  /** Confined by Landlock at this ABI version. */
  z.object({
    mode: z.literal('landlock'),
    abi: z.number().int(),
    write_scope: z.enum(['unrestricted', 'project']),
    /** Absent in shells recorded before the network could be confined: it was open. */
    network: networkStatusSchema.optional(),
    /** Absent in shells recorded before policy files were held: they were writable. */
    policy_files: policyFilesStatusSchema.optional(),
  }),
  /** agent.shell_sandbox is false. */
  z.object({ mode: z.literal('off'), reason: z.string() }),
  /** The kernel has no Landlock (or the OS is not Linux): shells run unconfined. */
  z.object({ mode: z.literal('unconfined'), reason: z.string() }),
  /** Landlock could be used but the launcher is missing: shells are refused, never run unconfined. */
  z.object({ mode: z.literal('unavailable'), reason: z.string() }),
]);
export type SandboxStatus = z.infer<typeof sandboxStatusSchema>;

export const shellStatusSchema = z.enum(['running', 'exited', 'killed']);
export type ShellStatus = z.infer<typeof shellStatusSchema>;

const sandboxFields = {
  sandbox: sandboxStatusSchema,
  /** Grants dropped while building this spawn's ruleset (narrower, still confined). */
  sandbox_warnings: z.array(z.string()).optional(),
};

/**
 * Connections of this command the egress proxy refused, each with its reason and how to allow it
 * (the program may have hidden the proxy's 403); for a background shell, those since the last read.
 */
const networkRefused = z.array(z.string()).optional();

/** A foreground run: merged output, exit code, duration. */
export const shellRunPayloadSchema = z.object({
  kind: z.literal('shell'),
  command: z.string(),
  cwd: z.string(),
  stdout: z.string(),
  exit_code: z.number().int(),
  duration_ms: z.number().int(),
  timed_out: z.boolean(),
  /** Characters cut from the middle of stdout (head and tail kept). */
  truncated_characters: z.number().int().optional(),
  signal: z.string().nullable().optional(),
  network_refused: networkRefused,
  /** The editor's terminal it ran in (`mewbo acp` with an editor's terminal/*): the editor draws it. */
  terminal_id: z.string().optional(),
  ...sandboxFields,
});
export type ShellRunPayload = z.infer<typeof shellRunPayloadSchema>;

/** A background start: a shell_id instead of exit_code and duration_ms. */
export const shellStartPayloadSchema = z.object({
  kind: z.literal('shell'),
  command: z.string(),
  cwd: z.string(),
  shell_id: z.string(),
  status: shellStatusSchema,
  ...sandboxFields,
});

export const shellInfoSchema = z.object({
  shell_id: z.string(),
  command: z.string(),
  cwd: z.string(),
  background: z.boolean(),
  tty: z.boolean(),
  status: shellStatusSchema,
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  /**
   * Why it was killed: by a kill request, the idle reaper, a timeout, shutdown, or lost (the host
   * died without stopping it, and the shell died with the host).
   */
  kill_reason: z.enum(['kill', 'idle', 'timeout', 'shutdown', 'lost']).nullable(),
  started_at: z.number(),
  ended_at: z.number().nullable(),
  duration_ms: z.number().int(),
  /** Total characters ever written: a read with this cursor returns only newer output. */
  cursor: z.number().int(),
  /** http(s) URLs seen in the output (dev servers), at most a few. */
  urls: z.array(z.string()),
  sandbox: sandboxStatusSchema,
});
export type ShellInfo = z.infer<typeof shellInfoSchema>;

/** read / write / kill: the session's state plus the output after the cursor. */
export const shellSessionPayloadSchema = shellInfoSchema.extend({
  kind: z.literal('shell_session'),
  operation: z.enum(['read', 'write', 'kill']),
  output: z.string(),
  /** Output evicted from the buffer before it was read: unrecoverable. */
  missed_characters: z.number().int().optional(),
  truncated_characters: z.number().int().optional(),
  /** The filter that was applied (display only; the cursor is as if unfiltered). */
  filter: z.string().optional(),
  network_refused: networkRefused,
});
export type ShellSessionPayload = z.infer<typeof shellSessionPayloadSchema>;

export const shellListPayloadSchema = z.object({
  kind: z.literal('shell_session'),
  operation: z.literal('list'),
  shells: z.array(shellInfoSchema),
  /** shells.max_sessions: live and retained shells at once. */
  cap: z.number().int(),
});
