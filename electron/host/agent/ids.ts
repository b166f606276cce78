import { randomBytes } from 'node:crypto';

// Ids of the things the loop creates. Hex from crypto: unique across restarts without a counter.

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export const newQuestionId = () => `q_${hex(6)}`;
export const newApprovalId = () => `a_${hex(6)}`;
/** An MCP server's question (elicitation/create) as the session knows it. */
export const newElicitationId = () => `el_${hex(6)}`;
export const newPlanId = () => `plan_${hex(6)}`;
export const newSubagentId = () => `sub_${hex(4)}`;
/** present_ui panels: `gui-` and 8 hex digits (seed). */
export const newPanelId = () => `gui-${hex(4)}`;
/** An external agent's fs or terminal request, judged as a call of the app's own tool (acp/client). */
export const newClientCallId = () => `acp_client_${hex(6)}`;
