import { test, expect } from './agent-fixtures';

// #17.15: per-view stores. While an answer streams in, the deltas re-render its streaming row and
// nothing else: the other rows (here the question before it) are not rendered again. Renders are
// counted in the production build through React's DevTools hook (the one React DevTools itself
// uses): at every commit it walks the fibers that changed and counts those that rendered.

const DELTAS = 60;
/** A pace slower than a frame, so the deltas arrive over many frames (and many commits). */
const DELTA_EVERY_MS = 40;
/** The stream stays open after its last word, so the test reads the counts while it streams. */
const HOLD_MS = 3_000;

/** Installed before React loads: counts, per commit, the rendered fibers of timeline rows. */
function installRenderCounter() {
  const PERFORMED_WORK = 1;
  const counts = { rows: {} as Record<string, number>, streaming: 0, commits: 0 };
  (window as unknown as { __renders: typeof counts }).__renders = counts;
  type Fiber = {
    child: Fiber | null;
    sibling: Fiber | null;
    alternate: Fiber | null;
    flags: number;
    type: unknown;
    memoizedProps: Record<string, unknown> | null;
  };
  const rendered = (f: Fiber) => f.alternate === null || (f.flags & PERFORMED_WORK) !== 0;
  const visit = (f: Fiber) => {
    if (typeof f.type !== 'string' && rendered(f)) {
      const props = f.memoizedProps ?? {};
      const item = props.item as { key?: string } | undefined;
      if (item?.key) counts.rows[item.key] = (counts.rows[item.key] ?? 0) + 1;
      else if (typeof props.id === 'string' && typeof props.sessionId === 'string')
        counts.streaming++;
    }
    // A subtree React did not enter keeps its old fibers (and their old flags): skip it.
    if (f.alternate && f.child === f.alternate.child) return;
    for (let c = f.child; c; c = c.sibling) visit(c);
  };
  (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
      counts.commits++;
      visit(root.current);
    },
  };
}

test('a streamed delta re-renders its streaming row only, never the rows before it', async ({
  page,
  host,
  script,
}) => {
  // One answer streamed slowly, in about DELTAS deltas; the stream stays open after its last word.
  const words = Array.from({ length: DELTAS }, (_, i) => `word${i} `).join('');
  const pace = {
    chars: Math.ceil(words.length / DELTAS),
    everyMs: DELTA_EVERY_MS,
    holdMs: HOLD_MS,
  };
  script.push({ text: words, pace });
  await page.addInitScript(installRenderCounter);
  await page.goto(host.url);
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Tell me the words');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const mine = page.getByLabel('You').filter({ hasText: 'Tell me the words' });
  await expect(mine).toBeVisible();

  // From the first streamed words on, count again.
  const streaming = page.locator('.msg.assistant.streaming');
  await expect(streaming).toContainText('word1 ', { timeout: 15_000 });
  const read = () =>
    page.evaluate(
      () =>
        (
          window as unknown as {
            __renders: { rows: Record<string, number>; streaming: number; commits: number };
          }
        ).__renders,
    );
  const before = await read();
  // The counter sees renders at all (it would otherwise prove nothing): the rows mounted.
  expect(Object.keys(before.rows).length).toBeGreaterThan(0);
  await expect(streaming).toContainText(`word${DELTAS - 1} `, { timeout: 15_000 });
  const during = await read();

  // Many deltas, many commits, and the streaming row rendered for them...
  expect(during.commits - before.commits).toBeGreaterThan(5);
  expect(during.streaming - before.streaming).toBeGreaterThan(5);
  // ...while every row already there rendered not once more (a durable event of the run may add
  // a row meanwhile: that is a new row, not a delta).
  for (const [key, n] of Object.entries(before.rows)) expect(during.rows[key], key).toBe(n);
  await expect(page.locator('.msg.assistant:not(.streaming)')).toContainText(`word${DELTAS - 1}`, {
    timeout: 15_000,
  });
});
