import { afterEach, describe, expect, it } from 'vitest';
import { isErrorPayload } from '../../../shared/tools/payload';
import { makeFixture, runCli, type Fixture } from '../../unit/tools/harness';
import { ruleCases } from '../../unit/tools/rule-cases';

// The same file-tool rules as test/unit/tools/file-tool-rules.test.ts, through the built CLI:
// `mewbo tool NAME --root DIR --args JSON` prints the payload, exit 0 for success, 1 for an error.

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

describe('file tools through `mewbo tool`', () => {
  for (const c of ruleCases) {
    it(c.rule, () => {
      fx = makeFixture();
      c.setup?.(fx.root, fx.outside);
      const run = runCli(fx, c.tool, c.args(fx.root));
      expect(run.payload, run.stderr).not.toBeNull();
      expect(run.status).toBe(isErrorPayload(run.payload!) ? 1 : 0);
      c.check(run.payload!, fx.root, fx.outside);
    });
  }
});
