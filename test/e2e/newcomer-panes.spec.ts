import type { Locator, Page } from '@playwright/test';
import { test, expect, shots } from './fixtures';
import { longSessionBodies, seedSession, shellApprovalWait } from './seed-session';

// #26.6: a window a newcomer shrank and grew again. The side panes lend the conversation their
// room when the window gets small (the dock first), and take back the widths they had when it
// grows: a window that was once narrow leaves no narrow pane behind, and the conversation never
// scrolls sideways nor loses its Stop.

const width = async (pane: Locator) => Math.round((await pane.boundingBox())?.width ?? 0);

/** The conversation fits its pane: no sideways scrolling, Stop inside the window. */
async function expectConversationWhole(app: Page, size: { width: number }): Promise<void> {
  // Polled: the panes lay themselves out in the frames after a resize, and a loaded machine
  // can be read in between (4 px over, once, in a CI run).
  await expect
    .poll(() =>
      app.evaluate(() =>
        Math.max(
          ...[
            document.documentElement,
            ...Array.from(document.querySelectorAll('.main, .timeline-scroll')),
          ].map((el) => el.scrollWidth - el.clientWidth),
        ),
      ),
    )
    .toBeLessThanOrEqual(0);
  const stop = (await app
    .locator('.session-controls')
    .getByRole('button', { name: 'Stop' })
    .boundingBox())!;
  expect(stop.x + stop.width).toBeLessThanOrEqual(size.width);
}

test('a window shrunk with the console dock open keeps the conversation whole, and grown again gives the panes back their widths', async ({
  app,
  home,
}) => {
  seedSession(home, 'Dev server', [
    ...longSessionBodies(12),
    { type: 'shell_started', shell_id: 'sh_1', command: 'npm run dev', cwd: '/tmp' },
    ...shellApprovalWait('Run: ls', '$ ls'),
  ]);
  await app.setViewportSize({ width: 1440, height: 900 });
  await app.reload();
  await app.getByRole('button', { name: /^Long session|^Dev server/ }).click();
  await expect(app.getByRole('region', { name: /^Console/ })).toBeVisible();
  const sidebar = app.locator('[data-panel][id="sidebar"]');
  const dock = app.locator('[data-panel][id="dock"]');
  // The person widens the dock by 120 px with the keyboard.
  const wide = { sidebar: await width(sidebar), dock: await width(dock) };
  await app.getByRole('separator', { name: 'Resize the activity dock' }).focus();
  for (let i = 0; i < 3; i++) await app.keyboard.press('ArrowLeft');
  await expect.poll(() => width(dock)).toBeGreaterThan(wide.dock + 60);
  wide.dock = await width(dock);
  expect(Math.abs((await width(sidebar)) - wide.sidebar)).toBeLessThanOrEqual(1);

  await app.setViewportSize({ width: 900, height: 650 });
  await expect.poll(() => width(dock)).toBeLessThan(wide.dock);
  // The dock made the room; the session list is still there.
  expect(await width(sidebar)).toBeGreaterThanOrEqual(160);
  await expectConversationWhole(app, { width: 900 });

  await app.setViewportSize({ width: 1440, height: 900 });
  // Within a pixel: the panes are laid out in percents of the window.
  await expect.poll(async () => Math.abs((await width(dock)) - wide.dock)).toBeLessThanOrEqual(1);
  expect(Math.abs((await width(sidebar)) - wide.sidebar)).toBeLessThanOrEqual(1);
  await expectConversationWhole(app, { width: 1440 });
  await shots(app, 'newcomer-panes', (size) => expectConversationWhole(app, size));
});

test('a window that started narrow gives the session list its full width once it is large', async ({
  app,
  home,
}) => {
  seedSession(home, 'Notes', longSessionBodies(6));
  await app.setViewportSize({ width: 900, height: 650 });
  await app.reload();
  const sidebar = app.locator('[data-panel][id="sidebar"]');
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  const narrow = await width(sidebar);
  await app.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(() => width(sidebar)).toBeGreaterThan(narrow + 30);
  const large = await width(sidebar);
  // A reload at that size keeps it.
  await app.reload();
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await expect.poll(async () => Math.abs((await width(sidebar)) - large)).toBeLessThanOrEqual(1);
});
