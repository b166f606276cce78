import { test, expect, SCREENSHOTS, shots } from './fixtures';
import { test as modelTest } from './agent-fixtures';
import { FakeAnthropic } from '../helpers/fake-anthropic';
import { longSessionBodies, seedSession } from './seed-session';

// #26.6: with no model set up, the message box offers no Send; what is typed brings the setup
// form in place, Enter goes to it, and the message waits in the box and goes once a model is
// saved. No error after a send, no config jargon.
test('with no model a typed message waits while the model is set up in place, then goes', async ({
  app,
}) => {
  const fake = await FakeAnthropic.start();
  try {
    fake.script.push({ text: 'Hello from the model.' });
    await expect(app.getByText('Connecting to the host')).toHaveCount(0);
    await app.getByRole('button', { name: 'New session', exact: true }).click();
    const box = app.getByRole('textbox', { name: 'Message' });
    await box.fill('hello agent');
    await expect(app.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
    const setup = app.getByRole('region', { name: 'Set up a model' });
    await expect(setup).toContainText('Your message stays in the box below');
    await app.screenshot({ path: `${SCREENSHOTS}/app-shell.png` });
    await shots(app, 'no-model-held');
    await app.setViewportSize({ width: 1280, height: 800 });

    // Enter does not send into a failure: it goes to the form, and the message stays.
    await box.press('Enter');
    await expect(setup.getByRole('combobox', { name: 'Provider' })).toBeFocused();
    await expect(box).toHaveValue('hello agent');
    await expect(app.getByRole('log', { name: 'Conversation' })).toHaveCount(0);

    await setup.getByRole('combobox', { name: 'Provider' }).selectOption('anthropic');
    await setup.getByRole('textbox', { name: 'Base URL' }).fill(fake.url);
    await setup.getByLabel('API key').fill('test-key');
    await setup.getByRole('button', { name: 'Test' }).click();
    await setup.getByRole('button', { name: 'claude-sonnet-4-5' }).click();
    await setup.getByRole('button', { name: 'Save' }).click();

    // Saved: the form goes, the waiting message is sent and answered, the box is empty again.
    await expect(setup).toHaveCount(0);
    const log = app.getByRole('log', { name: 'Conversation' });
    await expect(log.getByLabel('You').filter({ hasText: 'hello agent' })).toBeVisible();
    await expect(log.getByText('Hello from the model.')).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    await expect(app.getByRole('alert')).toHaveCount(0);
  } finally {
    await fake.close();
  }
});

test('over a conversation with history and no model, the setup is one line until something is typed', async ({
  app,
  home,
}) => {
  seedSession(home, 'Earlier talk', longSessionBodies(4));
  await app.reload();
  await app.getByRole('button', { name: /^Earlier talk/ }).click();
  const setup = app.getByRole('region', { name: 'Set up a model' });
  await expect(setup).toContainText('No model is set up yet');
  await expect(setup.getByRole('combobox', { name: 'Provider' })).toHaveCount(0);
  await expect(app.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
  await app.getByRole('textbox', { name: 'Message' }).fill('and now?');
  await expect(setup.getByRole('combobox', { name: 'Provider' })).toBeVisible();
  await expect(setup).toContainText('Your message stays in the box below');
  await expect(app.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
});

modelTest('two tabs see the same session live', async ({ app, context, script }) => {
  script.push({ text: 'Seen by both.' });
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
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
