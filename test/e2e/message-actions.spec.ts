import { test, expect, openProject, startSession } from './agent-fixtures';

// #17.14 (part): copy a message or a code block; edit a message of yours and resend it; make the
// answer to it again (Regenerate, under the answer).

test('copy an answer and its code, edit and resend, and regenerate the answer', async ({
  app,
  script,
}) => {
  script.push(
    { text: 'Use this:\n\n```ts\nconst PORT = 8080;\n```\n' },
    (req) => ({ text: req.transcript.includes('port 9090') ? 'Now 9090.' : 'no edit seen' }),
    (req) => ({
      text: req.transcript.includes('port 9090') ? 'Again 9090.' : 'no regenerate seen',
    }),
  );
  await app.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openProject(app, 'app');
  await startSession(app, 'Which port?');
  const answer = app.getByLabel('Agent').filter({ hasText: 'Use this:' });
  await expect(answer).toBeVisible();
  await answer.hover();
  await answer.getByRole('button', { name: 'Copy code' }).click();
  expect(await app.evaluate(() => navigator.clipboard.readText())).toBe('const PORT = 8080;\n');
  await answer.getByRole('button', { name: 'Copy message' }).click();
  expect(await app.evaluate(() => navigator.clipboard.readText())).toContain('```ts');

  const mine = app.getByLabel('You').filter({ hasText: 'Which port?' });
  await mine.hover();
  await mine.getByRole('button', { name: 'Edit and resend' }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await expect(box).toHaveValue('Which port?');
  await expect(box).toBeFocused();
  await box.fill('Use port 9090');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Now 9090.')).toBeVisible();

  await app
    .getByRole('group', { name: 'Answer' })
    .getByRole('button', { name: 'Regenerate' })
    .click();
  await expect(app.getByText('Again 9090.')).toBeVisible();
});
