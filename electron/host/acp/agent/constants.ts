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

/** A JSON-RPC error code of the server-defined range: the turn failed (no model, a provider error). */
export const TURN_FAILED_CODE = -32000;

/**
 * How long a tool waits for the editor's fs/* answer (ms): read_file then reads the disk, an edit
 * fails. An editor answers from memory at once; this only bounds one that hangs.
 */
export const CLIENT_FS_TIMEOUT_MS = 10_000;
