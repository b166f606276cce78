import { test, expect, SCREENSHOTS, shots } from './fixtures';
import { longSessionBodies, seedSession } from './seed-session';
import type { Page } from '@playwright/test';

// #17.14: Ctrl+F finds text in the conversation. The list is virtualized and the session paged
// (only the newest window is loaded), so a match in an older page must still be counted and
// reachable: the bar loads pages back to it and scrolls it into view, highlighted.

/** The text of the current highlight and whether it is inside the visible list. */
async function current(app: Page) {
  return app.evaluate(() => {
    // The registry is a Map of Sets (the test's DOM typings lack its Map methods).
    const registry = CSS.highlights as unknown as Map<string, Set<Range>>;
    const h = registry.get('find-current');
    const range = h ? ([...h][0] as Range | undefined) : undefined;
    if (!range) return null;
    const box = range.getBoundingClientRect();
    const list = document.querySelector('.timeline-scroll')!.getBoundingClientRect();
    const row = range.startContainer.parentElement!.closest('[data-seq]') as HTMLElement;
    // Drawn where the reader sees it: not under the find bar.
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      text: range.toString(),
      covered: !!hit?.closest('.find-bar'),
      seq: Number(row.dataset.seq),
      inView: box.top >= list.top && box.bottom <= list.bottom && box.height > 0,
      all: registry.get('find-match')?.size ?? 0,
    };
  });
}

test('Ctrl+F counts matches in pages not loaded, and next/previous reach them, highlighted', async ({
  app,
  home,
}) => {
  const bodies = longSessionBodies(2_000);
  // Three needles: in the first message (far outside the loaded window), in the middle, and twice
  // in the newest answer.
  const edit = (i: number, text: (t: string) => string) => {
    const b = bodies[i]!;
    if (b.type === 'user_message' || b.type === 'assistant_message')
      bodies[i] = { ...b, text: text(b.text) };
  };
  const firstUser = bodies.findIndex((b) => b.type === 'user_message');
  const middleUser = bodies.findIndex((b, i) => i > 1_000 && b.type === 'user_message');
  const lastAnswer = bodies.findLastIndex((b) => b.type === 'assistant_message');
  edit(firstUser, (t) => `${t} (mind the Zebra crossing)`);
  edit(middleUser, (t) => `${t} (a zebra here)`);
  edit(lastAnswer, (t) => `zebra one, ${t} and ZEBRA two`);
  seedSession(home, 'Zebra hunt', bodies);
  await app.reload();
  await app.getByRole('button', { name: /^Zebra hunt/ }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeEditable();
  await box.focus();

  await app.keyboard.press('Control+F');
  const find = app.getByRole('searchbox', { name: 'Find in conversation' });
  await expect(find).toBeFocused();
  await app.keyboard.type('zebra');
  const count = app.getByRole('search').getByRole('status');
  // Four in all; the newest is current first (where the reader is).
  await expect(count).toHaveText('4 of 4');
  await expect.poll(async () => (await current(app))?.inView).toBe(true);
  expect((await current(app))!.text).toBe('ZEBRA');
  expect((await current(app))!.all).toBeGreaterThanOrEqual(2);

  // Shift+Enter goes back: the newest answer's first match, then one in an older page.
  await app.keyboard.press('Shift+Enter');
  await expect(count).toHaveText('3 of 4');
  await expect.poll(async () => (await current(app))?.text).toBe('zebra');
  await app.keyboard.press('Shift+Enter');
  await expect(count).toHaveText('2 of 4');
  await expect
    .poll(async () => current(app), { timeout: 30_000 })
    .toMatchObject({ seq: middleUser, inView: true, covered: false, text: 'zebra' });
  await app.getByRole('button', { name: 'Previous match' }).click();
  await expect(count).toHaveText('1 of 4');
  await expect
    .poll(async () => current(app), { timeout: 30_000 })
    .toMatchObject({ seq: firstUser, inView: true, covered: false, text: 'Zebra' });
  await expect(app.getByText(/mind the Zebra crossing/)).toBeVisible();
  await app.screenshot({ path: `${SCREENSHOTS}/find-older-page.png` });

  // Enter goes forward again, wrapping from the last to the first.
  await find.focus();
  await app.keyboard.press('Enter');
  await expect(count).toHaveText('2 of 4');
  await expect.poll(async () => (await current(app))?.seq).toBe(middleUser);

  // Nothing found says so; Esc closes the bar, clears the highlights and gives the message box focus.
  await find.fill('no such words');
  await expect(count).toHaveText('No matches');
  await find.fill('zebra');
  await expect(count).toHaveText(/of 4/);
  await app.keyboard.press('Escape');
  await expect(find).toHaveCount(0);
  await expect(box).toBeFocused();
  expect(await app.evaluate(() => (CSS.highlights as unknown as Map<string, unknown>).size)).toBe(
    0,
  );
});

test('the find bar at both window sizes, light and dark', async ({ app, home }) => {
  seedSession(home, 'Short one', longSessionBodies(40));
  await app.reload();
  await app.getByRole('button', { name: /^Short one/ }).click();
  await expect(app.getByText(/Done with step/).last()).toBeVisible();
  await app.keyboard.press('Control+F');
  await app.keyboard.type('port');
  const bar = app.getByRole('search', { name: 'Find in conversation' });
  await expect(bar.getByRole('status')).toHaveText(/^\d+ of \d+$/);
  await shots(app, 'find', async (size) => {
    const b = (await bar.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(size.width);
    // Below the session header, not over its controls.
    const header = (await app.locator('.session-header').boundingBox())!;
    expect(b.y).toBeGreaterThanOrEqual(header.y + header.height);
  });
});
