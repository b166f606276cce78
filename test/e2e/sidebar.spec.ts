import { test, expect } from './fixtures';

test('sessions are created, searched, renamed in place and deleted after a confirm', async ({
  app,
}) => {
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  const newButton = sidebar.getByRole('button', { name: 'New session', exact: true });
  // One at a time: a click while a create is on its way is a double click (one session).
  for (let i = 1; i <= 3; i++) {
    await newButton.click();
    await expect(sidebar.locator('.session')).toHaveCount(i);
  }

  // Rename the open one with F2.
  await sidebar.locator('.session.active').focus();
  await app.keyboard.press('F2');
  const title = sidebar.getByRole('textbox', { name: 'Session title' });
  await title.fill('Fix the login bug');
  await title.press('Enter');
  await expect(sidebar.getByRole('button', { name: /Fix the login bug/ }).first()).toBeVisible();
  await expect(app.locator('.session-title h1')).toHaveText('Fix the login bug');

  // Search narrows the list by title.
  await sidebar.getByRole('searchbox', { name: 'Search sessions' }).fill('login');
  await expect(sidebar.locator('.session')).toHaveCount(1);
  await sidebar.getByRole('searchbox', { name: 'Search sessions' }).fill('zzzz');
  await expect(sidebar).toContainText('No session matches.');
  await sidebar.getByRole('searchbox', { name: 'Search sessions' }).fill('');

  // Delete (from the row's menu) asks first; Cancel keeps it.
  const deleteFromMenu = async () => {
    await sidebar.getByRole('button', { name: 'More actions for Fix the login bug' }).click();
    await sidebar.getByRole('menuitem', { name: /Delete/ }).click();
  };
  await deleteFromMenu();
  const confirm = app.getByRole('dialog', { name: 'Delete session?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(sidebar.locator('.session')).toHaveCount(3);
  await deleteFromMenu();
  await app
    .getByRole('dialog', { name: 'Delete session?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(sidebar.locator('.session')).toHaveCount(2);
  await expect(sidebar).not.toContainText('Fix the login bug');

  // The list survives a reload (sessions live on the host).
  await app.reload();
  await expect(sidebar.locator('.session')).toHaveCount(2);
});
