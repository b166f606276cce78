import { openProject, startSession, test, expect } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// The session header's context meter (how full the window is, where compaction starts, the cost
// estimate) and its model picker (the provider's own list; the choice applies to the next run).

test('the context meter fills from the usage the model reports, and the picker switches the session to another model', async ({
  app,
  fake,
  script,
}) => {
  fake.models.push('claude-haiku-4-5');
  script.push(
    { text: 'Reading.', toolCalls: [{ name: 'read_file', args: { path: 'src/server.ts' } }] },
    { text: 'PORT is 3000.', usage: { input: 50_000, output: 1_000 } },
  );
  await openProject(app, 'app');
  await startSession(app, 'what port?');
  await expect(app.getByText('PORT is 3000.')).toBeVisible();

  const meter = app.getByRole('meter', { name: 'Context window' });
  // 51,000 of claude-sonnet-4-5's 200,000 tokens.
  await expect(meter).toHaveAttribute('aria-valuenow', '26');
  await expect(meter).toHaveAttribute(
    'aria-valuetext',
    /26% of the context window, compaction at \d+%/,
  );
  // $3/M in, $15/M out: 50,000 in and 1,000 out is $0.165, plus the first small call.
  await expect(app.getByLabel('Estimated cost')).toHaveText(/^\$0\.1[67]$/);
  await app.screenshot({ path: `${SCREENSHOTS}/context-meter.png` });

  const picker = app.getByRole('combobox', { name: 'Model' });
  await expect(picker.locator('option', { hasText: 'claude-haiku-4-5' })).toHaveCount(1);
  await expect(picker).toHaveValue('');
  await picker.selectOption({ label: 'claude-haiku-4-5' });
  await expect(picker).toHaveValue('anthropic:claude-haiku-4-5');

  script.push({ text: 'Now on haiku.' });
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.fill('and again?');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Now on haiku.')).toBeVisible();
  expect(fake.requests.at(-1)!.body.model).toBe('claude-haiku-4-5');
  expect(fake.requests[0]!.body.model).toBe('claude-sonnet-4-5');

  // The choice is in the session's log: a reload shows it.
  await app.reload();
  await expect(app.getByRole('combobox', { name: 'Model' })).toHaveValue(
    'anthropic:claude-haiku-4-5',
  );
});
