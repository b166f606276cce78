import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, openProject, PORT_EDIT, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

test('an edit waits for approval with its whole change shown, then lands as a diff card', async ({
  app,
  script,
  projects,
}) => {
  script.push(
    {
      text: 'I will make the port configurable.',
      toolCalls: [{ name: 'aider_edit_block_tool', args: { content: PORT_EDIT } }],
    },
    { text: 'Done: **PORT** now comes from the environment.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Make the port configurable');

  // The blocks are shown as the diff they would make (the same drawing a structured_patch edit
  // gets), with the file and its counts, and nothing is written yet.
  const approval = app.getByRole('article', { name: 'Approval: aider_edit_block_tool' });
  await expect(approval.locator('.diff-file-name')).toContainText('src/server.ts +1 −1');
  await expect(approval.locator('tr.add')).toContainText(
    'const PORT = Number(process.env.PORT ?? 3000);',
  );
  await expect(approval.locator('tr.del')).toContainText('const PORT = 3000;');
  await expect(approval).not.toContainText('<<<<<<< SEARCH');
  expect(readFileSync(join(projects.app, 'src/server.ts'), 'utf8')).toContain('const PORT = 3000;');
  await app.screenshot({ path: `${SCREENSHOTS}/approval-edit.png` });
  await approval.getByRole('button', { name: 'Side by side' }).click();
  await expect(approval.locator('table.split td.text.del')).toContainText('const PORT = 3000;');
  await expect(approval.locator('table.split td.text.add')).toContainText('process.env.PORT');
  await app.screenshot({ path: `${SCREENSHOTS}/approval-edit-split.png` });
  await approval.getByRole('button', { name: 'Inline' }).click();
  await approval.getByRole('button', { name: 'Approve' }).click();

  const diff = app.getByRole('article', { name: 'Edit src/server.ts' });
  await expect(diff).toContainText('+1 −1');
  await expect(diff.locator('tr.add')).toContainText(
    'const PORT = Number(process.env.PORT ?? 3000);',
  );
  await expect(diff.locator('tr.del')).toContainText('const PORT = 3000;');
  await expect(app.getByText('now comes from the environment')).toBeVisible();
  await expect(approval).toContainText('Approved');
  expect(readFileSync(join(projects.app, 'src/server.ts'), 'utf8')).toContain('process.env.PORT');

  await diff.getByRole('button', { name: 'Side by side' }).click();
  await expect(diff.locator('table.split td.text.del')).toContainText('const PORT = 3000;');
  await expect(diff.locator('table.split td.text.add')).toContainText('process.env.PORT');
  await app.screenshot({ path: `${SCREENSHOTS}/diff-card.png` });
});

test('a denied command never runs, and the agent hears why', async ({ app, script, projects }) => {
  script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'rm -rf src' } }] },
    (req) => ({
      text: req.transcript.includes('keep the sources')
        ? 'Understood, I left src alone.'
        : 'no reason seen',
    }),
  );
  await openProject(app, 'app');
  await startSession(app, 'Clean up');
  const approval = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(approval.getByLabel('Full command')).toContainText('$ rm -rf src');
  await approval.getByRole('textbox', { name: 'Reason (optional)' }).fill('keep the sources');
  await approval.getByRole('button', { name: 'Deny' }).click();
  await expect(app.getByText('Understood, I left src alone.')).toBeVisible();
  await expect(approval).toContainText('Denied');
  expect(readFileSync(join(projects.app, 'src/server.ts'), 'utf8')).toContain('PORT');
});

test('Stop stops a run that is waiting, at once, and says so', async ({ app, script }) => {
  script.push({ toolCalls: [{ name: 'aider_shell_tool', args: { command: 'sleep 100' } }] });
  await openProject(app, 'app');
  await startSession(app, 'Wait a while');
  await expect(app.getByRole('article', { name: 'Approval: aider_shell_tool' })).toBeVisible();
  const stop = app.locator('.session-controls').getByRole('button', { name: 'Stop' });
  await expect(stop).toHaveAttribute('aria-keyshortcuts', 'Escape');
  await stop.click();
  await expect(app.getByRole('status', { name: 'Run stopped' })).toBeVisible();
  await expect(app.getByText(/^Stopped/)).toBeVisible();
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('Esc stops an answer mid-stream and keeps what had arrived, marked as stopped', async ({
  app,
  script,
}) => {
  script.push({ text: 'The first part of a long answer, before the stop.', hang: true });
  await openProject(app, 'app');
  await startSession(app, 'Explain the server');
  await expect(app.getByText('before the stop.')).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(app.getByRole('status', { name: 'Run stopped' })).toBeVisible();
  const answer = app.getByLabel('Agent').filter({ hasText: 'The first part of a long answer' });
  await expect(answer.getByRole('note')).toHaveText(/Stopped by you/);
  await expect(answer).not.toHaveAttribute('aria-busy', 'true');
  await app.screenshot({ path: `${SCREENSHOTS}/stopped-answer.png` });
  // Reopened from the log, the partial answer is still there, still marked.
  await app.reload();
  await expect(
    app
      .getByLabel('Agent')
      .filter({ hasText: 'The first part of a long answer' })
      .getByRole('note'),
  ).toHaveText(/Stopped by you/);
});

test('approvals answer from the keyboard, and focus goes back to the message box', async ({
  app,
  script,
  projects,
}) => {
  script.push(
    { toolCalls: [{ name: 'aider_edit_block_tool', args: { content: PORT_EDIT } }] },
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'rm -rf src' } }] },
    { text: 'All done.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Change the port, then clean up');
  const edit = app.getByRole('article', { name: 'Approval: aider_edit_block_tool' });
  const approve = edit.getByRole('button', { name: 'Approve', exact: true });
  await expect(approve).toHaveAttribute('aria-keyshortcuts', 'Alt+A');
  await expect(edit.getByRole('button', { name: 'Deny', exact: true })).toHaveAttribute(
    'aria-keyshortcuts',
    'Alt+D',
  );
  // While the run waits, the message box's Send is its Stop, with Esc on it.
  await expect(
    app
      .getByRole('form', { name: 'Write a message' })
      .getByRole('button', { name: 'Stop', exact: true }),
  ).toHaveAttribute('aria-keyshortcuts', 'Escape');
  await app.keyboard.press('Alt+A');
  await expect(edit).toContainText('Approved');
  const shell = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(shell.getByRole('button', { name: 'Deny', exact: true })).toBeVisible();
  // Tab to Deny and press it: the button leaves the page, focus does not fall to <body>.
  await shell.getByRole('button', { name: 'Deny', exact: true }).focus();
  await app.keyboard.press('Enter');
  await expect(shell).toContainText('Denied');
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await expect(app.getByText('All done.')).toBeVisible();
  expect(readFileSync(join(projects.app, 'src/server.ts'), 'utf8')).toContain('process.env.PORT');
});

test.describe('with the structured patch backend', () => {
  test.use({ config: { agent: { edit_tool: 'structured_patch' } } });

  test('an exact-string edit is approved from its diff, drawn as a diff before anything is written', async ({
    app,
    script,
    projects,
  }) => {
    script.push(
      {
        toolCalls: [
          {
            name: 'file_edit_tool',
            args: {
              file_path: 'src/server.ts',
              old_string: 'const PORT = 3000;',
              new_string: 'const PORT = 8080;',
            },
          },
        ],
      },
      { text: 'Port changed.' },
    );
    await openProject(app, 'app');
    await startSession(app, 'Use port 8080');
    const approval = app.getByRole('article', { name: 'Approval: file_edit_tool' });
    await expect(approval.locator('tr.del')).toContainText('const PORT = 3000;');
    await expect(approval.locator('tr.add')).toContainText('const PORT = 8080;');
    expect(readFileSync(join(projects.app, 'src/server.ts'), 'utf8')).toContain('3000');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await expect(app.getByText('Port changed.')).toBeVisible();
    expect(readFileSync(join(projects.app, 'src/server.ts'), 'utf8')).toContain('8080');
  });
});
