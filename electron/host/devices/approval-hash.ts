import { createHash } from 'node:crypto';

// The hash a remote decision carries (PROTOCOL.md "The approval hash"): it binds the decision to
// exactly what the phone showed (session, approval id, tool, the full detail and arguments), so a
// stale or replayed decision cannot approve anything else. Each field is length-prefixed, so no
// choice of field contents can make two different approvals hash the same bytes.

export const APPROVAL_HASH_TAG = 'mewbo-approval-v1';

export interface HashedApproval {
  session_id: string;
  approval_id: string;
  tool: string;
  detail: string;
  args_json: string;
}

export function approvalHash(a: HashedApproval): string {
  const h = createHash('sha256');
  for (const field of [
    APPROVAL_HASH_TAG,
    a.session_id,
    a.approval_id,
    a.tool,
    a.detail,
    a.args_json,
  ]) {
    h.update(`${Buffer.byteLength(field, 'utf8')}:`, 'utf8');
    h.update(field, 'utf8');
  }
  return h.digest('hex');
}
