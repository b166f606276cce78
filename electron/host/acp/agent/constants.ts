import type { SessionMode } from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../../config/schema';

// `mewbo acp`'s fixed answers: the app's permission modes as ACP session modes, and the name it
// gives itself in `initialize`.

export const AGENT_NAME = 'mewbo';
export const AGENT_TITLE = 'Mewbo';

export const ACP_MODES: readonly (SessionMode & { id: PermissionMode })[] = [
  { id: 'ask', name: 'Ask', description: 'Edits and shell commands ask for permission first' },
  {
    id: 'accept-edits',
    name: 'Accept edits',
    description: 'Edits run at once; shell commands ask for permission',
  },
  { id: 'plan', name: 'Plan', description: 'Read-only tools; the agent proposes a plan' },
  { id: 'auto', name: 'Auto', description: 'Nothing asks (the sandbox, rules and deny list hold)' },
];

/**
 * The turn failed (a provider error, a broken stream): JSON-RPC's internal error, with the reason.
 * Not -32000, which ACP gives to auth_required: a client would ask the user to sign in again.
 */
export const TURN_FAILED_CODE = -32603;

/** Error codes a run logs when it has no model to call: answered as ACP's auth_required. */
export const NO_MODEL_CODES: readonly string[] = ['no_model', 'no_key', 'no_local_model'];

/**
 * How long a tool waits for the editor's fs/* answer (ms): read_file then reads the disk, an edit
 * fails. An editor answers from memory at once; this only bounds one that hangs.
 */
export const CLIENT_FS_TIMEOUT_MS = 10_000;

/**
 * How often a background shell in the editor's terminal has its output read (ms): ACP has no
 * output notification, so terminal/output is polled. A read with wait_ms sees new output within
 * this; slower would make every wait longer, faster would make a chatty editor busier.
 */
export const EDITOR_TERMINAL_POLL_MS = 250;

/**
 * The start of a read looked for in the output read last, once the editor dropped the start of
 * its output (characters): long enough that ordinary output matches in few places; an overlap
 * shorter than this is taken as output dropped unread.
 */
export const OVERLAP_PROBE_CHARS = 64;

/** Sessions in one session/list answer: an editor's picker shows the newest; more are paged. */
export const SESSION_LIST_PAGE = 100;
