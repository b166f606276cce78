import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  test,
  expect,
  openProject,
  startSession,
  APP_FILES,
  PORT_EDIT,
  PORT_QUESTION,
} from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// The whole story of issue 7 in one session, driven like a person with a scripted model: switch
// project from the picker, the todo dock, an approved edit landing as a diff card, a background
// shell live in its console, a question answered, a panel, and a closing reply.

const DEV =
  'for i in 1 2 3 4 5 6; do echo "serving on http://127.0.0.1:4173/ ($i)"; sleep 0.3; done; sleep 60';
test.use({
  files: { ...APP_FILES, 'dev.sh': DEV },
});

test('one session: picker, todos, approved edit with its diff, a live console, a question, a panel', async ({
  app,
  script,
  projects,
}) => {
  const todos = (s: string[]) => ({
    name: 'update_todos',
    args: {
      todos: ['Make the port configurable', 'Start the dev server', 'Confirm the port'].map(
        (label, i) => ({ label, status: s[i] }),
      ),
    },
  });
  script.push(
    {
      text: 'Plan first.',
      toolCalls: [
        todos(['in_progress', 'pending', 'pending']),
        { name: 'aider_edit_block_tool', args: { content: PORT_EDIT } },
      ],
    },
    {
      toolCalls: [
        todos(['completed', 'in_progress', 'pending']),
        { name: 'aider_shell_tool', args: { command: 'sh dev.sh', run_in_background: true } },
      ],
    },
    {
      toolCalls: [todos(['completed', 'completed', 'in_progress']), PORT_QUESTION],
    },
    (req) => ({
      toolCalls: [
        todos(['completed', 'completed', 'completed']),
        {
          name: 'present_ui',
          args: {
            summary: 'Dev server',
            spec: {
              root: [
                {
                  type: 'KeyValue',
                  items: [
                    { label: 'URL', value: 'http://127.0.0.1:4173/' },
                    {
                      label: 'Default port',
                      value: req.transcript.includes('Use 8080') ? '8080' : '3000',
                    },
                  ],
                },
                { type: 'Badge', label: 'running', tone: 'success' },
              ],
            },
          },
        },
      ],
    }),
    { text: 'All set: the server reads **PORT**, the dev server runs, and the default is 8080.' },
  );

  // Switch project from the picker (the app starts on "No project").
  await openProject(app, 'app');
  await startSession(app, 'Make the port configurable and start the dev server');

  // The todo dock follows the run; the edit waits for approval with its full change on screen.
  const dock = app.getByRole('region', { name: 'Todos' });
  await expect(dock.locator('[aria-current="step"]')).toHaveText(/Make the port configurable/);
  const editApproval = app.getByRole('article', { name: 'Approval: aider_edit_block_tool' });
  await expect(editApproval).toContainText('Number(process.env.PORT ?? 3000)');
  await editApproval.getByRole('button', { name: 'Approve' }).click();
  const diff = app.getByRole('article', { name: 'Edit src/server.ts' });
  await expect(diff.locator('tr.add')).toContainText('process.env.PORT');
  expect(readFileSync(join(projects.app, 'src/server.ts'), 'utf8')).toContain('process.env.PORT');

  // The background shell, approved, streams into its console while it runs.
  const shellApproval = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(shellApproval.getByLabel('Full command')).toContainText('$ sh dev.sh');
  await shellApproval.getByRole('button', { name: 'Approve' }).click();
  const console = app.getByRole('region', { name: 'Console: sh dev.sh' });
  await expect(console).toContainText('(2)');
  await expect(console.getByRole('status', { name: /Status: running/ })).toBeVisible();

  // A question, answered with an option; the run continues and presents a panel.
  const question = app.getByRole('article', { name: 'Question: Port' });
  await question.getByRole('radio', { name: /Use 8080/ }).check();
  await question.getByRole('button', { name: 'Answer' }).click();
  const panel = app.getByRole('article', { name: 'Panel: Dev server' });
  await expect(panel).toContainText('8080');
  await expect(dock).toContainText('3/3 done');
  await expect(app.getByText('the default is 8080')).toBeVisible();
  await expect(console).toContainText('(6)');
  await expect(console.getByRole('link', { name: 'http://127.0.0.1:4173/' })).toBeVisible();
  await app.screenshot({ path: `${SCREENSHOTS}/journey.png` });

  await app.getByRole('button', { name: 'Settings' }).click();
  await app
    .getByRole('dialog', { name: 'Settings' })
    .getByRole('tab', { name: 'Appearance' })
    .click();
  await app.getByRole('radio', { name: 'Dark' }).check();
  await app.keyboard.press('Escape');
  await app.screenshot({ path: `${SCREENSHOTS}/journey-dark.png` });
});
