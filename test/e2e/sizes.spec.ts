import { test, expect, SCREENSHOTS, SHOT_SIZES } from './fixtures';
import { longSessionBodies, seedSession, shellApprovalWait, todosBody } from './seed-session';
import type { SessionEventBody } from '../../shared/protocol/events';

// #17.9 and the screenshot bar: the same rich session at 1440x900 and 900x650, light and
// dark. Each shot is looked at by a person; the assertions hold what the shots showed was wrong.

const rich: SessionEventBody[] = [
  ...longSessionBodies(24),
  todosBody([
    ['Read the server entry point', 'completed'],
    ['Make the port configurable', 'in_progress'],
    ['Update the README', 'pending'],
  ]),
  ...shellApprovalWait(
    'Run: npm run build -- --mode production',
    '$ npm run build -- --mode production\n\ncwd: /work/app',
  ),
];

for (const size of SHOT_SIZES) {
  for (const theme of ['light', 'dark'] as const) {
    test(`a session at ${size.width}x${size.height} in ${theme}: nothing overlaps, nothing is cut off`, async ({
      app,
      home,
    }) => {
      seedSession(home, 'Configurable port', rich);
      await app.setViewportSize(size);
      await app.emulateMedia({ colorScheme: theme });
      await app.reload();
      await app.getByRole('button', { name: /^Configurable port/ }).click();
      await expect(app.getByRole('article', { name: /^Approval/ })).toBeVisible();
      if (size.width < 1100) {
        // A small window starts with the dock folded to a strip; one click opens it.
        await expect(app.getByRole('region', { name: 'Todos' })).toHaveCount(0);
        await app.getByRole('button', { name: 'Show activity dock' }).click();
      }
      await expect(app.getByRole('region', { name: 'Todos' })).toBeVisible();
      // The controls a person needs are inside the window.
      // The run waits on the approval: the message box's Send is its Stop meanwhile.
      const controls = {
        'Stop (message box)': app
          .getByRole('form', { name: 'Write a message' })
          .getByRole('button', { name: 'Stop', exact: true }),
        'Stop (header)': app.locator('.session-controls').getByRole('button', { name: 'Stop' }),
        Approve: app.getByRole('button', { name: 'Approve', exact: true }),
        'New session': app.getByRole('button', { name: 'New session', exact: true }),
      };
      for (const [name, control] of Object.entries(controls)) {
        const box = await control.boundingBox();
        expect(box, name).not.toBeNull();
        expect(box!.x + box!.width, `${name} right edge`).toBeLessThanOrEqual(size.width);
        expect(box!.y + box!.height, `${name} bottom edge`).toBeLessThanOrEqual(size.height);
      }
      // The conversation stays at its end through the panes' first layout: the waiting approval's
      // buttons are in view, not under the message box.
      await expect(app.getByRole('button', { name: 'Approve', exact: true })).toBeInViewport({
        ratio: 1,
      });
      // With the pointer on the row, its actions show: its waiting badge stays beside them, not
      // under them. (At 900x650 the pointer went on to the dock's button: it is brought back.)
      await app.locator('.session-row').hover();
      const badge = (await app.locator('.session-row .waiting-badge').boundingBox())!;
      const actions = (await app.locator('.session-row .row-more').boundingBox())!;
      const apart =
        badge.x + badge.width <= actions.x ||
        badge.y >= actions.y + actions.height ||
        badge.y + badge.height <= actions.y;
      expect(apart, 'the waiting badge is clear of the row actions').toBe(true);
      // No sideways scrolling of the page.
      const overflow = await app.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await app.screenshot({
        path: `${SCREENSHOTS}/session-${size.width}x${size.height}-${theme}.png`,
      });
    });
  }
}

test('panes resize from the keyboard, fold away, and keep their sizes through a reload', async ({
  app,
}) => {
  await app.setViewportSize({ width: 1440, height: 900 });
  await app.reload();
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar).toBeVisible();
  const before = (await sidebar.boundingBox())!.width;
  const splitter = app.getByRole('separator', { name: 'Resize the sessions pane' });
  await splitter.focus();
  for (let i = 0; i < 5; i++) await app.keyboard.press('ArrowRight');
  await expect.poll(async () => (await sidebar.boundingBox())!.width).toBeGreaterThan(before + 20);
  const widened = (await sidebar.boundingBox())!.width;
  await app.reload();
  await expect
    .poll(async () => Math.round((await sidebar.boundingBox())!.width))
    .toBe(Math.round(widened));

  // Ctrl+B folds the sessions pane; its button (or Ctrl+B again) brings it back.
  await app.getByRole('searchbox', { name: 'Search sessions' }).focus();
  await app.keyboard.press('Control+B');
  await expect(sidebar).not.toBeInViewport();
  await app.getByRole('button', { name: 'Show sessions' }).click();
  await expect(sidebar).toBeInViewport();
});
