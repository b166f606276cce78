import type { Page } from '@playwright/test';
import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// #17.8: when the agent waits on the person, the window title and the session's row say so, and a
// window that is not in front gets one system notification per wait (unless turned off).

/** The page's Notification API, recorded; and a window that is not focused. */
async function recordNotifications(app: Page): Promise<void> {
  await app.addInitScript(() => {
    const w = window as unknown as { __notes: { title: string; body?: string }[] };
    w.__notes = [];
    class RecordedNotification {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      onclick: (() => void) | null = null;
      constructor(title: string, opts?: { body?: string }) {
        w.__notes.push({ title, body: opts?.body });
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { value: RecordedNotification });
    document.hasFocus = () => false;
  });
  await app.reload();
}

const notes = (app: Page) =>
  app.evaluate(
    () => (window as unknown as { __notes: { title: string; body?: string }[] }).__notes,
  );

test('an approval the agent waits on shows in the title and the list, and notifies once', async ({
  app,
  script,
}) => {
  await recordNotifications(app);
  script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'npm run build' } }] },
    { text: 'Built.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Build the app');
  await expect(app.getByRole('article', { name: 'Approval: aider_shell_tool' })).toBeVisible();
  await expect(app).toHaveTitle('Waiting for you: Build the app — Mewbo');
  const row = app.getByRole('navigation', { name: 'Sessions' }).locator('.session-row');
  await expect(row).toContainText('waiting for you');
  await expect
    .poll(() => notes(app))
    .toEqual([{ title: 'The agent is waiting for you', body: 'Build the app' }]);
  await app.screenshot({ path: `${SCREENSHOTS}/waiting-for-you.png` });

  await app.keyboard.press('Alt+A');
  await expect(app.getByText('Built.')).toBeVisible();
  await expect(app).toHaveTitle('Build the app — Mewbo');
  await expect(row).not.toContainText('waiting for you');
  expect(await notes(app)).toHaveLength(1);
});

test('with notifications turned off in Settings, a wait shows but does not notify', async ({
  app,
  script,
}) => {
  await recordNotifications(app);
  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Appearance' }).click();
  await dialog.getByRole('checkbox', { name: /Notify me when the agent waits/ }).uncheck();
  await app.keyboard.press('Escape');
  script.push({ toolCalls: [{ name: 'aider_shell_tool', args: { command: 'npm run build' } }] });
  await openProject(app, 'app');
  await startSession(app, 'Build quietly');
  await expect(app).toHaveTitle('Waiting for you: Build quietly — Mewbo');
  // The title changed in the same update that would have notified: nothing was sent.
  expect(await notes(app)).toEqual([]);
});
