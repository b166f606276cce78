import { afterEach, describe, expect, it } from 'vitest';
import { makeFixture, runApi, type Fixture } from './harness';
import { ruleCases } from './rule-cases';

// Every file-tool rule through the host's tool API (the same cases run through `mewbo tool` in
// test/integration/tools/cli-rules.test.ts).

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

describe('file tools through the tool API', () => {
  for (const c of ruleCases) {
    it(c.rule, async () => {
      fx = makeFixture();
      c.setup?.(fx.root, fx.outside);
      const payload = await runApi(fx.root, c.tool, c.args(fx.root));
      expect(payload).toBeTruthy();
      c.check(payload, fx.root, fx.outside);
    });
  }
});
