import { test, expect, SCREENSHOTS } from './fixtures';
import { FakeAnthropic } from '../helpers/fake-anthropic';

// #17.12: with no model configured, the first screen says so and sets one up in place: provider,
// key, the provider's model list, a test, save; by keyboard alone.

test('the first screen sets up a model before anything is typed', async ({ app }) => {
  const fake = await FakeAnthropic.start();
  try {
    const setup = app.getByRole('region', { name: 'Set up a model' });
    await expect(setup).toContainText('No model is set up yet');
    await app.screenshot({ path: `${SCREENSHOTS}/first-run.png` });

    await setup.getByRole('combobox', { name: 'Provider' }).selectOption('anthropic');
    await setup.getByRole('textbox', { name: 'Base URL' }).fill(fake.url);
    await setup.getByLabel('API key').fill('test-key');
    await setup.getByRole('button', { name: 'Test' }).focus();
    await app.keyboard.press('Enter');
    await expect(setup.getByRole('status').last()).toContainText('it works');
    await setup.getByRole('button', { name: 'claude-sonnet-4-5' }).click();
    await setup.getByRole('button', { name: 'Save' }).click();
    // Set up: the panel goes, and a session can be started.
    await expect(setup).toHaveCount(0);
    await app.getByRole('button', { name: 'New session', exact: true }).click();
    await expect(app.getByRole('region', { name: 'Set up a model' })).toHaveCount(0);
  } finally {
    await fake.close();
  }
});

test('a provider that does not answer fails the test in words, with what to do', async ({
  app,
}) => {
  // A port that was just listening and is now closed: nothing answers there.
  const gone = await FakeAnthropic.start();
  const url = gone.url;
  await gone.close();
  const setup = app.getByRole('region', { name: 'Set up a model' });
  await setup.getByRole('textbox', { name: 'Base URL' }).fill(url);
  await setup.getByLabel('API key').fill('some-key');
  await setup.getByRole('button', { name: 'Test' }).click();
  const alert = setup.getByRole('alert');
  await expect(alert).toContainText('Check the provider address and key in Settings');
  await expect(alert).not.toContainText('models.list');
});
