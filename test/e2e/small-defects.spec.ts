import { test as hostTest, expect, SCREENSHOTS } from './fixtures';
import { test } from './agent-fixtures';
import { longSessionBodies, seedSession } from './seed-session';

// #17.13: the small defects a first afternoon with the app turned up.

hostTest(
  'a card opened in one session stays closed in another with the same event number',
  async ({ app, home }) => {
    seedSession(home, 'First', longSessionBodies(12));
    seedSession(home, 'Second', longSessionBodies(12));
    await app.reload();
    const sidebar = app.getByRole('navigation', { name: 'Sessions' });
    const readCard = app.getByRole('article', { name: /^Read/ }).getByRole('button').first();

    await sidebar.getByRole('button', { name: /^First/ }).click();
    await expect(readCard).toHaveAttribute('aria-expanded', 'false');
    await readCard.click();
    await expect(readCard).toHaveAttribute('aria-expanded', 'true');

    await sidebar.getByRole('button', { name: /^Second/ }).click();
    await expect(app.locator('.session-title h1')).toHaveText('Second');
    await expect(readCard).toHaveAttribute('aria-expanded', 'false');

    await sidebar.getByRole('button', { name: /^First/ }).click();
    await expect(app.locator('.session-title h1')).toHaveText('First');
    await expect(readCard).toHaveAttribute('aria-expanded', 'true');
  },
);

hostTest('a double click on New session makes one session', async ({ app }) => {
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await sidebar.getByRole('button', { name: 'New session', exact: true }).dblclick();
  await expect(sidebar.locator('.session-row')).toHaveCount(1);
  // Still one once the sessions topic has announced whatever was created.
  await app.reload();
  await expect(
    app.getByRole('navigation', { name: 'Sessions' }).locator('.session-row'),
  ).toHaveCount(1);
});

test('List models shows what the provider offers, and one click picks a model', async ({ app }) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: 'List models' }).click();
  const offered = dialog.getByRole('list', { name: 'Models offered' });
  await expect(offered.getByRole('button', { name: 'claude-sonnet-4-5' })).toBeVisible();
  await expect(dialog.getByRole('status').last()).toContainText('offers 1 model:');
  await offered.getByRole('button', { name: 'claude-sonnet-4-5' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Model' })).toHaveValue('claude-sonnet-4-5');
  await app.screenshot({ path: `${SCREENSHOTS}/settings-list-models.png` });
});

test('the picker lists each project once, says when nothing matches, and keeps long paths readable', async ({
  app,
}) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await app.keyboard.type('docs');
  await app.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  // docs is now recent: a search finds it once, not once under Recent and again under Projects.
  await app.keyboard.press('Control+P');
  await expect(picker.getByRole('option', { name: /docs/ })).toHaveCount(1);
  await app.keyboard.type('docs');
  await expect(picker.getByRole('option', { name: /docs/ })).toHaveCount(1);
  const detail = picker.getByRole('option', { name: /docs/ }).locator('.picker-detail');
  await expect(detail).toHaveAttribute('title', /mewbo-e2e-docs-/);
  await app.keyboard.press('Control+A');
  await app.keyboard.type('zzzz-nothing');
  await expect(picker).toContainText('No project matches “zzzz-nothing”.');
  await app.keyboard.press('Escape');
});

hostTest('with no projects the picker says how to open one', async ({ app }) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await expect(picker).toContainText('No projects yet');
  await app.screenshot({ path: `${SCREENSHOTS}/picker-empty.png` });
});
