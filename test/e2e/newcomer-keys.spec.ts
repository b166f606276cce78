import type { Page } from '@playwright/test';
import { test as hostTest, expect, shots } from './fixtures';
import { test, openProject, startSession } from './agent-fixtures';
import { longSessionBodies, seedSession, shellApprovalWait } from './seed-session';
import type { SessionEventBody } from '../../shared/protocol/events';

// #26.6, the keyboard and the session list as a newcomer met them: a skip link past the list, the
// list one Tab stop with its actions in a menu, a title that opens its session at 900 px, and a
// console that says how to leave it and lets Tab go once its shell has ended.

/** A short session of its own title (the log's first event names it). */
const titled = (title: string, extra: SessionEventBody[] = []): SessionEventBody[] => [
  { type: 'session_created', title, project: null, root: null },
  ...longSessionBodies(6).slice(1),
  ...extra,
];

/** The element that has focus, as a short description. */
const focusedName = (app: Page) =>
  app.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('aria-label') || el?.textContent?.trim().slice(0, 40) || el?.tagName;
  });

hostTest(
  'the first Tab offers a skip to the message box, and the session list is one Tab stop',
  async ({ app, home }) => {
    for (const title of ['Alpha', 'Beta', 'Gamma']) seedSession(home, title, titled(title));
    await app.reload();
    const sidebar = app.getByRole('navigation', { name: 'Sessions' });
    await sidebar.getByRole('button', { name: /^Beta/ }).click();
    await expect(app.locator('.session-title h1')).toHaveText('Beta');

    // Before the session list's first control: the skip link, and it lands in the message box.
    await sidebar.locator('.project-button').focus();
    await app.keyboard.press('Shift+Tab');
    const skip = app.getByRole('link', { name: 'Skip to the message box' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await app.keyboard.press('Enter');
    await expect(app.getByRole('textbox', { name: 'Message' })).toBeFocused();

    // From the search box, one Tab reaches the open session's row and the next leaves the list.
    await sidebar.getByRole('searchbox', { name: 'Search sessions' }).focus();
    await app.keyboard.press('Tab');
    const rows = sidebar.locator('button.session');
    await expect(rows.filter({ hasText: 'Beta' })).toBeFocused();
    await app.keyboard.press('Tab');
    expect(await focusedName(app)).toBe('Pair phone');
    // Back in, arrows move between rows; Shift+F10 opens the row's menu.
    await app.keyboard.press('Shift+Tab');
    await expect(rows.filter({ hasText: 'Beta' })).toBeFocused();
    await app.keyboard.press('Home');
    await expect(rows.first()).toBeFocused();
    await app.keyboard.press('ArrowDown');
    const second = rows.nth(1);
    await expect(second).toBeFocused();
    const name = (await second.locator('.title').textContent())!;
    await app.keyboard.press('Shift+F10');
    const menu = app.getByRole('menu', { name: `Actions for ${name}` });
    await expect(menu.getByRole('menuitem', { name: /Rename/ })).toBeFocused();
    await app.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: /Export/ })).toBeFocused();
    await app.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(second).toBeFocused();
    await app.keyboard.press('Shift+F10');
    await app.keyboard.press('Enter');
    await expect(sidebar.getByRole('textbox', { name: 'Session title' })).toBeFocused();
    await app.keyboard.press('Escape');
  },
);

hostTest(
  'at 900 px a click on the middle of a hovered title opens that session, and a waiting badge leaves the title room',
  async ({ app, home }) => {
    seedSession(
      home,
      'Make the port configurable everywhere',
      titled('Make the port configurable everywhere'),
    );
    seedSession(
      home,
      'Deploy the docs to staging',
      titled('Deploy the docs to staging', shellApprovalWait('Run: ls', '$ ls')),
    );
    await app.setViewportSize({ width: 900, height: 650 });
    await app.reload();
    const sidebar = app.getByRole('navigation', { name: 'Sessions' });
    // Opened, the waiting session says it waits (its log is read).
    await sidebar.getByRole('button', { name: /^Deploy the docs/ }).click();
    const row = sidebar.locator('.session-row').filter({ hasText: 'Make the port' });
    const title = row.locator('.title');
    await row.hover();
    const box = (await title.boundingBox())!;
    await app.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(row.locator('button.session')).toHaveAttribute('aria-current', 'page');
    await expect(sidebar.getByRole('textbox', { name: 'Session title' })).toHaveCount(0);

    const waiting = sidebar.locator('.session-row').filter({ hasText: 'waiting for you' });
    await expect(waiting.locator('.waiting-badge')).toBeVisible();
    expect((await waiting.locator('.title').boundingBox())!.width).toBeGreaterThan(70);
    await waiting.hover();
    expect((await waiting.locator('.title').boundingBox())!.width).toBeGreaterThan(70);
    await shots(app, 'newcomer-sidebar', async () => {
      await waiting.hover();
    });
  },
);

const CAT = {
  name: 'aider_shell_tool',
  args: { command: 'cat', run_in_background: true, tty: true },
};

test.describe('a console', () => {
  test.use({ config: { permission_mode: 'auto' } });

  test('says Shift+Tab leaves it while its shell runs, and lets Tab go once the shell has ended', async ({
    app,
    script,
  }) => {
    script.push({ toolCalls: [CAT] }, { text: 'cat is waiting.' });
    await openProject(app, 'app');
    await startSession(app, 'Start cat');
    const console = app.getByRole('region', { name: 'Console: cat' });
    await expect(console.getByRole('status', { name: /Status: running/ })).toBeVisible();
    const screen = console.locator('.xterm-helper-textarea');
    await screen.focus();
    const keys = console.getByText('Shift+Tab leaves the console');
    await expect(keys).toBeVisible();
    await expect(screen).toHaveAttribute('aria-describedby', /keys-/);
    // Running: Tab is the shell's.
    await app.keyboard.press('Tab');
    await expect(screen).toBeFocused();
    await app.keyboard.press('Shift+Tab');
    await expect(screen).not.toBeFocused();
    await expect(keys).toBeHidden();

    await console.getByRole('button', { name: 'Kill' }).click();
    await app
      .getByRole('dialog', { name: 'Kill the process?' })
      .getByRole('button', { name: 'Kill' })
      .click();
    await expect(console.getByRole('status', { name: /Status: killed/ })).toBeVisible();
    // Ended: Tab moves on, as anywhere else.
    await screen.focus();
    await expect(console.getByText('Shift+Tab leaves the console')).toHaveCount(0);
    await app.keyboard.press('Tab');
    await expect(screen).not.toBeFocused();
  });
});
