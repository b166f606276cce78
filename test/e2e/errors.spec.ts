import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// #17.11 (and the limit half of #17.10): an error is said once, in a person's words, with what
// to do next; no codes, no zod paths, no method names; a message over the limit is refused with
// a clear reason and the connection stays up.

test('a rejected key is said once, plainly, with the next step', async ({ app, script }) => {
  script.push({
    error: { status: 401, message: 'invalid x-api-key', type: 'authentication_error' },
  });
  await openProject(app, 'app');
  await startSession(app, 'Hello');
  const log = app.getByRole('log', { name: 'Conversation' });
  const alert = log.getByRole('alert');
  await expect(alert).toHaveCount(1, { timeout: 15_000 });
  // What to do next, said once (the host's message already points at Settings).
  await expect(alert).toContainText(/key in Settings/);
  // Said once in words, and a button goes there.
  await expect(alert.getByRole('button', { name: 'Open Settings' })).toBeVisible();
  const words = (await alert.innerText()).replace('Open Settings', '');
  expect(words.match(/Settings/g)).toHaveLength(1);
  await expect(alert.locator('code')).toHaveCount(0);
  await expect(log).not.toContainText('Run failed');
  await app.screenshot({ path: `${SCREENSHOTS}/error-auth.png` });
});

test('a message over the limit is refused in words, and the connection stays up', async ({
  app,
  script,
}) => {
  script.push({ text: 'Got the short one.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.fill('x'.repeat(210_000));
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const alert = app.locator('form.composer').getByRole('alert');
  await expect(alert).toContainText('too long to send');
  await expect(alert).not.toContainText('text:');
  await expect(alert).not.toContainText('sessions.send');
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  // Still connected: a normal message goes through.
  await box.fill('A short one');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Got the short one.')).toBeVisible();
});
