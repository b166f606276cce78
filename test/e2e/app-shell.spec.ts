import { test, expect, SCREENSHOTS } from './fixtures';

test('a new session takes a message and says plainly when no model is set', async ({ app }) => {
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await app.getByRole('textbox', { name: 'Message' }).fill('hello agent');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(
    app.getByRole('log', { name: 'Conversation' }).getByText('hello agent'),
  ).toBeVisible();
  await expect(app.getByRole('alert')).toContainText(/no model is set/i);
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.screenshot({ path: `${SCREENSHOTS}/app-shell.png` });
});

test('two tabs see the same session live', async ({ app, context }) => {
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const second = await context.newPage();
  await second.goto(app.url());
  await expect(second.getByText('Connecting to the host')).toHaveCount(0);
  await second.locator('.session').first().click();
  await app.getByRole('textbox', { name: 'Message' }).fill('seen twice');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(
    second.getByRole('log', { name: 'Conversation' }).getByText('seen twice'),
  ).toBeVisible();
});
