import { describe, expect, it } from 'vitest';
import { RemoteWorktreeSite } from '../../../electron/host/remote/remote-worktree-site';
import type { RemoteHost } from '../../../electron/host/remote/remote-host';
import { HostError } from '../../../electron/host/rpc/host-error';
import {
  ApplyConflictError,
  CheckoutChangedError,
} from '../../../electron/host/worktrees/apply-to-checkout';
import { worktreeRecord } from '../../helpers/worktree-record';

// A refused Apply comes back from the host naming its checkout by the host's own path; the app
// names it as ssh://HOST/path, so no message reads as a folder of this computer. The host's real
// refusals are made by the same classes (apply-to-checkout.ts); here each is thrown by a host
// stand-in, since the race that makes checkout_changed cannot be timed from outside.

const wt = worktreeRecord('/srv/app', 'fix');

function siteRefusing(err: unknown): RemoteWorktreeSite {
  const host = {
    invoke: () => Promise.reject(err),
  } as unknown as RemoteHost;
  return new RemoteWorktreeSite({
    url: 'ssh://ana@box:2222/srv/app',
    host: async () => host,
    copy: () => [],
  });
}

describe("a remote Apply's refusal", () => {
  it('names the checkout as ssh://HOST/path, keeping the code and each file', async () => {
    const conflict = new ApplyConflictError(
      [{ path: 'a.txt', reason: 'both changed' }],
      wt.checkout,
    );
    const changed = new CheckoutChangedError('b.txt', wt.checkout);
    for (const [sent, want] of [
      [
        conflict,
        new ApplyConflictError(
          [{ path: 'a.txt', reason: 'both changed' }],
          'ssh://ana@box:2222/srv/app',
        ),
      ],
      [changed, new CheckoutChangedError('b.txt', 'ssh://ana@box:2222/srv/app')],
    ] as const) {
      // As it crosses the wire: code, message and issues only.
      const wire = new HostError(sent.code, sent.message, sent.issues);
      const got = await siteRefusing(wire)
        .apply(wt)
        .catch((e: unknown) => e);
      expect(got).toBeInstanceOf(HostError);
      const e = got as HostError;
      expect([e.code, e.message, e.issues]).toEqual([want.code, want.message, want.issues]);
      expect(e.message).not.toContain(' /srv/app');
    }
  });

  it('passes any other error on as it came', async () => {
    for (const err of [
      new HostError('git_failed', 'git apply failed in /srv/app'),
      new HostError('apply_conflict', 'no issues listed'),
      new Error('link dropped'),
    ]) {
      expect(
        await siteRefusing(err)
          .apply(wt)
          .catch((e: unknown) => e),
      ).toBe(err);
    }
  });
});
