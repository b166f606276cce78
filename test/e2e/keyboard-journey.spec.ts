import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, APP_FILES, PORT_EDIT, PORT_QUESTION } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';
import { expectRing, tabTo } from './keyboard';

// #17.7: a whole working session with the keyboard alone (no click, no programmatic focus):
// open a project from the picker, start a session, approve an edit, look at a console, answer a
// question, switch session and back, and stop a run. Every control on the way is reached with
// Tab (so it is in the tab order), and the focused one always shows a focus ring.

const DEV = 'for i in 1 2 3 4 5 6; do echo "serving on port 4173 ($i)"; sleep 0.3; done; sleep 60';
test.use({
  files: { ...APP_FILES, 'dev.sh': DEV },
});

test('a whole session by keyboard alone, with focus always visible', async ({
  app,
  script,
  projects,
}) => {
  script.push(
    { text: 'Hello from the first session.' },
    {
      text: 'Plan: edit, then serve.',
      toolCalls: [{ name: 'aider_edit_block_tool', args: { content: PORT_EDIT } }],
    },
    {
      toolCalls: [
        { name: 'aider_shell_tool', args: { command: 'sh dev.sh', run_in_background: true } },
      ],
    },
    {
      toolCalls: [PORT_QUESTION],
    },
    (req) => ({
      text: req.transcript.includes('Use 8080') ? 'Default is now 8080.' : 'Kept 3000.',
    }),
    { text: 'Writing a very long answer', hang: true },
  );
  const sessions = app.getByRole('navigation', { name: 'Sessions' });
  const box = app.getByRole('textbox', { name: 'Message' });
  await expect(sessions).toBeVisible();
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);

  // The picker: its shortcut, typing, Enter. Reached by Tab too (the project button).
  await tabTo(app, sessions.locator('.project-button'));
  await app.keyboard.press('Enter');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await expect(picker).toBeVisible();
  await expectRing(app);
  await app.keyboard.type('app');
  await app.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await expect(sessions.locator('.project-name')).toHaveText('app');

  // A first session, started from its button.
  await tabTo(app, sessions.getByRole('button', { name: 'New session', exact: true }));
  await app.keyboard.press('Enter');
  await expect(box).toBeFocused();
  await app.keyboard.type('Say hello');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Hello from the first session.')).toBeVisible();

  // The second session, with the shortcut.
  await app.keyboard.press('Control+N');
  await expect(app.locator('.session-title h1')).toHaveText('New session');
  await expect(box).toBeFocused();
  await app.keyboard.type('Make the port configurable and serve it');
  await app.keyboard.press('Enter');

  // The edit's approval: Tab to its Approve button (its shortcut is on it), Enter.
  const editApproval = app.getByRole('article', { name: 'Approval: aider_edit_block_tool' });
  await expect(editApproval).toContainText('Number(process.env.PORT ?? 3000)');
  const approve = editApproval.getByRole('button', { name: 'Approve' });
  await expect(approve).toHaveAttribute('aria-keyshortcuts', /Alt\+A/);
  await tabTo(app, approve);
  await app.screenshot({ path: `${SCREENSHOTS}/keyboard-approve.png` });
  await app.keyboard.press('Enter');
  await expect(app.getByRole('article', { name: 'Edit src/server.ts' })).toBeVisible();
  await expect
    .poll(() => readFileSync(join(projects.app, 'src/server.ts'), 'utf8'))
    .toContain('process.env.PORT');
  await expectRing(app);

  // The shell's approval, with the shortcut from wherever focus is.
  const shellApproval = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(shellApproval).toBeVisible();
  await app.keyboard.press('Alt+A');
  await expect(shellApproval).toContainText('Approved');

  // The console: its tab, then its search, all in the tab order.
  const console = app.getByRole('region', { name: 'Console: sh dev.sh' });
  await expect(console).toContainText('(2)');
  await tabTo(app, app.getByRole('tab', { name: /sh dev\.sh/ }));
  await tabTo(app, console.getByRole('button', { name: 'Search' }));
  await app.keyboard.press('Enter');
  const search = console.getByRole('searchbox', { name: 'Search console output' });
  await expect(search).toBeFocused();
  await app.keyboard.type('port 4173');
  await app.keyboard.press('Enter');
  await expect(console.getByRole('status').filter({ hasText: 'No match' })).toHaveCount(0);
  await app.screenshot({ path: `${SCREENSHOTS}/keyboard-console.png` });
  await app.keyboard.press('Escape');
  await expect(search).toHaveCount(0);

  // The question: Tab to its options (a radio group is one stop), Space and arrows choose, Tab
  // to Answer, Enter.
  const question = app.getByRole('article', { name: 'Question: Port' });
  await expect(question).toBeVisible();
  await tabTo(app, question.getByRole('radio'), true);
  await app.keyboard.press('Space');
  const use8080 = question.getByRole('radio', { name: /Use 8080/ });
  for (let i = 0; i < 4 && !(await use8080.isChecked()); i++) await app.keyboard.press('ArrowDown');
  await expect(use8080).toBeChecked();
  await expectRing(app);
  await tabTo(app, question.getByRole('button', { name: 'Answer' }));
  await app.keyboard.press('Enter');
  await expect(app.getByText('Default is now 8080.')).toBeVisible();
  await expectRing(app);

  // Switch session in the list: Tab to it, arrows move, Enter opens; and back again.
  const list = sessions.locator('.session-list');
  const row = (title: RegExp) => list.locator('button.session').filter({ hasText: title });
  await tabTo(app, row(/Make the port configurable/), true);
  await app.keyboard.press('ArrowDown');
  await expect(row(/Say hello/)).toBeFocused();
  await expectRing(app);
  await app.keyboard.press('Enter');
  await expect(app.locator('.session-title h1')).toHaveText('Say hello');
  await expect(app.getByText('Hello from the first session.')).toBeVisible();
  await expectRing(app);
  // The list is one Tab stop, the open session's row: the arrows reach the others.
  await tabTo(app, row(/Say hello/), true);
  await app.keyboard.press('ArrowUp');
  await expect(row(/Make the port configurable/)).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(app.locator('.session-title h1')).toHaveText(/Make the port configurable/);

  // Stop a run: Esc, with the partial answer kept.
  await tabTo(app, box);
  await app.keyboard.type('Now explain everything');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Writing a very long answer')).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(app.getByRole('status', { name: 'Run stopped' })).toBeVisible();
  await expect(app.getByText('Writing a very long answer')).toBeVisible();
  await expectRing(app);
  await app.screenshot({ path: `${SCREENSHOTS}/keyboard-stopped.png` });
});
