import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

test('in plan mode the plan waits for approval, then the session acts on it', async ({
  app,
  script,
}) => {
  script.push(
    {
      toolCalls: [
        {
          name: 'exit_plan_mode',
          args: {
            plan: '1. Read `src/server.ts`\n2. Make **PORT** configurable\n3. Run the tests',
          },
        },
      ],
    },
    (req) => ({
      text: req.transcript.includes('approved the plan')
        ? 'Carrying out the plan now.'
        : 'plan verdict not seen',
    }),
  );
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await app.getByRole('combobox', { name: 'Permission mode' }).selectOption('plan');
  await expect(app.getByRole('combobox', { name: 'Permission mode' })).toHaveValue('plan');
  await app.getByRole('textbox', { name: 'Message' }).fill('Make the port configurable');
  await app.getByRole('button', { name: 'Send', exact: true }).click();

  const plan = app.getByRole('article', { name: 'Plan' });
  await expect(plan).toContainText('waiting for your decision');
  await expect(plan.locator('strong')).toHaveText('PORT');
  await expect(app.getByRole('article', { name: /exit_plan_mode/ })).toHaveCount(0);
  await app.screenshot({ path: `${SCREENSHOTS}/plan.png` });
  await plan.getByRole('button', { name: 'Approve plan' }).click();
  await expect(app.getByText('Carrying out the plan now.')).toBeVisible();
  await expect(plan).toContainText('approved');
  await expect(app.getByRole('combobox', { name: 'Permission mode' })).not.toHaveValue('plan');
});

test('a failed tool call reads as an error card with its message and code, and markdown code is highlighted', async ({
  app,
  script,
}) => {
  script.push(
    { toolCalls: [{ name: 'read_file', args: { path: 'src/missing.ts' } }] },
    {
      text: 'That file does not exist. Here is what I would write:\n\n```ts\nexport const PORT = Number(process.env.PORT ?? 3000);\n```',
    },
  );
  await openProject(app, 'app');
  await startSession(app, 'Read the missing file');
  const card = app.getByRole('article', { name: 'Read src/missing.ts' });
  await expect(card.getByRole('group', { name: 'Error' })).toBeVisible();
  await expect(card.locator('.error-message')).toContainText('src/missing.ts');
  await expect(card.getByRole('group', { name: 'Error' })).toContainText('code');
  await expect(app.locator('.md pre code.language-ts .hljs-keyword').first()).toHaveText('export');
  await app.screenshot({ path: `${SCREENSHOTS}/tool-error.png` });
});

test('a provider failure is said plainly in the conversation', async ({ app, script }) => {
  script.push({
    error: { status: 401, message: 'invalid x-api-key', type: 'authentication_error' },
  });
  await openProject(app, 'app');
  await startSession(app, 'Hello');
  await expect(
    app
      .getByRole('alert')
      .filter({ hasText: /401|api-key|key/i })
      .first(),
  ).toBeVisible({ timeout: 15_000 });
});
