import type { RemoteApprovalItem } from '../../../shared/device/remote-frames';

// The approval hash of PROTOCOL.md ("The approval hash"), recomputed on the phone from exactly
// what the page shows: if the desktop's hash differs, what the person would approve is not what
// they read, and the page does not offer Allow. SHA-256 over six length-prefixed UTF-8 fields
// (length in bytes, a colon, the field), so no field contents can shift bytes into another field.

export const APPROVAL_HASH_TAG = 'mewbo-approval-v1';

type Hashed = Pick<
  RemoteApprovalItem,
  'session_id' | 'approval_id' | 'tool' | 'detail' | 'args_json'
>;

export async function approvalHash(item: Hashed): Promise<string> {
  const encoder = new TextEncoder();
  const parts = [
    APPROVAL_HASH_TAG,
    item.session_id,
    item.approval_id,
    item.tool,
    item.detail,
    item.args_json,
  ].map((field) => {
    const bytes = encoder.encode(field);
    return [encoder.encode(`${bytes.length}:`), bytes];
  });
  const all = parts.flat();
  const joined = new Uint8Array(all.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const bytes of all) {
    joined.set(bytes, at);
    at += bytes.length;
  }
  const digest = await crypto.subtle.digest('SHA-256', joined);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether the desktop's hash is the hash of what the page shows (never for a cut item). */
export async function hashMatches(item: RemoteApprovalItem): Promise<boolean> {
  if (item.truncated || !globalThis.crypto?.subtle) return false;
  return (await approvalHash(item)) === item.hash;
}
