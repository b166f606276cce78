import { test, expect, openProject, startSession } from './agent-fixtures';
import { shots } from './fixtures';
import { makePng } from '../helpers/png';

// #26.6, what peers' message boxes offer and this one lacked: Send turns into Stop while a run is
// live, and an attach button sits beside paste and drop.

test('while a run is live, Send is Stop; a message typed meanwhile is sent instead', async ({
  app,
  script,
}) => {
  script.push({ text: 'A long answer that is still being written', hang: true });
  await openProject(app, 'app');
  await startSession(app, 'Explain the server');
  await expect(app.getByText('still being written')).toBeVisible();
  const box = app.getByRole('form', { name: 'Write a message' });
  await expect(box.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
  // Something typed can be sent mid-run (the run picks it up): Send comes back for it.
  await box.getByRole('textbox', { name: 'Message' }).fill('and the tests');
  await expect(box.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await box.getByRole('textbox', { name: 'Message' }).fill('');
  await shots(app, 'composer-stop');

  await box.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(app.getByRole('status', { name: 'Run stopped' })).toBeVisible();
  await expect(box.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
  await expect(box.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await expect(box.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('the attach button adds picked images as the same chips a paste makes', async ({ app }) => {
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const chooser = app.waitForEvent('filechooser');
  await app.getByRole('button', { name: 'Attach images' }).click();
  await (
    await chooser
  ).setFiles({ name: 'red.png', mimeType: 'image/png', buffer: makePng(3, 2, [255, 0, 0]) });
  await expect(app.getByRole('listitem').filter({ hasText: 'red.png' })).toContainText('PNG, 3×2');
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeFocused();
});
