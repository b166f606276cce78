import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalHash as hostHash } from '../../../../electron/host/devices/approval-hash';
import { approvalHash, hashMatches } from '../../../../renderer/phone/remote/approval-hash';

// The phone page recomputes the approval hash from what it shows and offers Approve only when it
// equals the desktop's: the two computations must agree byte for byte on any text, and a
// mismatch or a cut item must never pass.

const item = {
  kind: 'approval' as const,
  session_id: 's_mb2k9x3f1a2b3c',
  approval_id: 'a_1c9e2f',
  tool: 'aider_shell_tool',
  summary: 'Run: npm test',
  detail: '$ npm test\n\ncwd: /home/me/api',
  args_json: '{"command":"npm test"}',
  session_title: 'Fix the flaky test',
  truncated: false,
  requested_at: 0,
};

describe('the page’s approval hash', () => {
  it('equals the desktop’s for any fields, multi-byte and separator-like text included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          session_id: fc.string({ unit: 'grapheme', maxLength: 20 }),
          approval_id: fc.string({ maxLength: 12 }),
          tool: fc.constantFrom('aider_shell_tool', 'edit_file', '5:shell'),
          detail: fc.string({ unit: 'grapheme', maxLength: 200 }),
          args_json: fc.json(),
        }),
        async (fields) => {
          expect(await approvalHash(fields)).toBe(hostHash(fields));
        },
      ),
    );
  });

  it('moves when a byte moves from one field to the next (length prefixes)', async () => {
    const a = await approvalHash({ ...item, tool: 'shell', detail: 'x' });
    const b = await approvalHash({ ...item, tool: 'shellx', detail: '' });
    expect(a).not.toBe(b);
  });

  it('lets Approve through only for the exact item the desktop hashed, and never a cut one', async () => {
    const hash = hostHash(item);
    expect(await hashMatches({ ...item, hash })).toBe(true);
    expect(
      await hashMatches({ ...item, hash, detail: item.detail.replace('npm', 'rm -rf ~;') }),
    ).toBe(false);
    expect(await hashMatches({ ...item, hash, truncated: true })).toBe(false);
  });
});
