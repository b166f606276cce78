import { test, expect, openProject } from './agent-fixtures';
import { shots } from './fixtures';

// #17.14: `@` in the message box lists the project's files (fuzzy, ignores honoured), arrows and
// Enter pick one, Esc closes the list without stopping anything, and the agent receives the file.

test.use({
  files: {
    'src/server.ts': 'const PORT = 3000;\nexport default PORT;\n',
    'src/services/session-runner.ts': 'export const run = 1;\n',
    'test/server.test.ts': 'test();\n',
    'dist/server.js': 'built\n',
    '.gitignore': 'dist/\n',
  },
});

test('@ lists project files fuzzily, the keyboard picks one, and the agent reads it', async ({
  app,
  script,
}) => {
  script.push((req) => ({
    text: req.transcript.includes('const PORT = 3000;') ? 'I read server.ts.' : 'no file seen',
  }));
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.focus();
  await app.keyboard.type('What does @srvr');
  const list = app.getByRole('listbox', { name: 'Files' });
  await expect(list).toBeVisible();
  const options = list.getByRole('option');
  // Best first: the file named like that, then the other, then letters spread over a path.
  await expect(options).toHaveText([/^server\.tssrc$/, /^server\.test\.tstest$/, /session-runner/]);
  // Ignored files are not offered (dist/ is in .gitignore).
  await expect(list).not.toContainText('dist');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', 'mention-option-0');

  // Down moves to the test file; Up comes back; Enter inserts the one in front.
  await app.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(box).toHaveValue('What does @src/server.ts ');
  await expect(box).toBeFocused();

  // Esc closes a list that is open, and typing on leaves it closed for that token.
  await app.keyboard.type('do? See @');
  await expect(list).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(box).toBeFocused();
  await app.keyboard.press('Backspace');
  await app.keyboard.press('Enter');

  const mine = app.getByLabel('You').filter({ hasText: 'What does @src/server.ts do?' });
  await expect(mine).toBeVisible();
  await expect(mine.getByRole('list', { name: 'Attached files' })).toHaveText(/src\/server\.ts/);
  await expect(app.getByText('I read server.ts.')).toBeVisible();
});

test('the mouse picks too, and a session with no project says there is nothing to mention', async ({
  app,
}) => {
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.fill('@');
  await expect(app.getByText('This session has no project folder')).toBeVisible();

  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await box.focus();
  await app.keyboard.type('@runner');
  await app.getByRole('option', { name: /session-runner\.ts/ }).click();
  await expect(box).toHaveValue('@src/services/session-runner.ts ');
  await expect(box).toBeFocused();
});

test('the file list fits above the message box at both window sizes, light and dark', async ({
  app,
}) => {
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.focus();
  await app.keyboard.type('@s');
  const list = app.getByRole('listbox', { name: 'Files' });
  await shots(app, 'mention', async () => {
    await expect(list).toBeVisible();
    const menu = (await list.boundingBox())!;
    const field = (await box.boundingBox())!;
    expect(menu.y + menu.height).toBeLessThanOrEqual(field.y);
    expect(menu.y).toBeGreaterThanOrEqual(0);
  });
});
