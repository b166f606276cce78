import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, test } from 'vitest';
import { weakMemo } from '../../../shared/weak-memo';

// Unit test files share one process: the flag is cleared again so no later context has gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');
/** A full GC once the current job has ended (a WeakRef's target is kept until then). */
const collect = () => new Promise<void>((resolve) => setImmediate(() => (gc(), resolve())));

test('a held value is built once; once nothing holds it, the next call builds it again', async () => {
  let builds = 0;
  const get = weakMemo(() => ({ n: ++builds }));
  const holder: { value?: { n: number } } = { value: get() };
  await collect();
  expect(get()).toBe(holder.value);
  expect(builds).toBe(1);
  delete holder.value;
  await collect();
  expect(get().n).toBe(2);
  expect(builds).toBe(2);
});
