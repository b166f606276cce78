import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, openProject, APP_FILES, PORT_EDIT } from './agent-fixtures';
import { shots } from './fixtures';
import { tempDir } from '../helpers/temp';
import { pagesOpened, standInBrowserCommand } from '../helpers/mcp-oauth-harness';
import { pathToFileURL } from 'node:url';

// Issue 28 in the window, by keyboard: a session made in its own worktree from the New session
// dialog, its work reviewed as a diff, committed on its branch, applied onto the checkout, an Apply
// the checkout's own change refuses (the files named, nothing written), then Discard after a
// confirm naming the commit lost. Real git in a temp repository, the model scripted.

test.use({ gitRepo: true, config: { permission_mode: 'auto' } });

const SERVER = 'src/server.ts';
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** Focuses a control and presses Enter, as a person tabbing to it would. */
async function press(app: Page, name: string): Promise<void> {
  await app.getByRole('button', { name, exact: true }).focus();
  await app.keyboard.press('Enter');
}

test('a worktree session is reviewed, committed, applied, refused on a conflict and discarded by keyboard', async ({
  app,
  script,
  projects,
}) => {
  // Review, two proposals, commit, two applies, eight screenshots and Discard: long on a loaded machine.
  test.setTimeout(120_000);
  script.push({ toolCalls: [{ name: 'aider_edit_block_tool', args: { content: PORT_EDIT } }] });
  script.push({ text: 'The port comes from PORT now.' });
  await openProject(app, 'app');

  await press(app, 'New session: agent, worktree…');
  const dialog = app.getByRole('dialog', { name: 'New session' });
  await expect(dialog.getByRole('radio', { name: /In a new worktree/ })).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(dialog.getByRole('textbox', { name: 'Branch' })).toBeFocused();
  await app.keyboard.type('port-config');
  await app.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  const header = app.locator('.session-header');
  await expect(header.getByText('⎇ port-config')).toBeVisible();

  const box = app.getByRole('textbox', { name: 'Message' });
  await box.focus();
  await app.keyboard.type('Make the port configurable');
  await app.keyboard.press('Enter');
  await expect(app.getByText('The port comes from PORT now.')).toBeVisible();
  // The work is in the worktree; the checkout has not moved.
  expect(readFileSync(join(projects.app, SERVER), 'utf8')).toBe(APP_FILES[SERVER]);
  const worktree = git(projects.app, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .find((p) => !p.endsWith('/' + projects.app.split('/').at(-1)))!;
  expect(readFileSync(join(worktree, SERVER), 'utf8')).toContain('process.env.PORT');

  await press(app, 'Review');
  const review = app.getByRole('region', { name: 'Review' });
  await expect(review.getByRole('status').filter({ hasText: 'changed' })).toHaveText(
    '1 file changed · 0 commits · 1 not committed',
  );
  await expect(review.getByRole('navigation', { name: 'Changed files' })).toContainText(SERVER);
  await expect(review.getByRole('region', { name: 'Changes' })).toContainText(
    'const PORT = Number(process.env.PORT ?? 3000);',
  );

  // The model proposes the message. When it fails, a message naming the file stands in, with why.
  const message = review.getByRole('textbox', { name: 'Commit message' });
  script.push({
    error: { status: 400, message: 'prompt is malformed', type: 'invalid_request_error' },
  });
  await press(app, 'Propose message');
  await expect(message).toHaveValue('Update src/server.ts');
  await expect(review.getByRole('status').filter({ hasText: 'could not propose' })).toContainText(
    'prompt is malformed',
  );
  // It answers: one short request with the diff not committed and no tools; its fences go.
  script.push({ text: '```\nRead the port from PORT\n```' });
  await press(app, 'Propose message');
  await expect(message).toHaveValue('Read the port from PORT');
  await expect(
    review.getByRole('status').filter({ hasText: 'Proposed by the model' }),
  ).toBeVisible();
  const asked = script.requests.at(-1)!;
  expect(asked.system).toContain('commit message');
  expect(asked.tools).toEqual([]);
  expect(asked.transcript).toContain('+const PORT = Number(process.env.PORT ?? 3000);');
  expect(asked.transcript).toContain(SERVER);

  // Edited before committing (a body under the proposed subject), then committed on the branch.
  await message.focus();
  await app.keyboard.press('End');
  await app.keyboard.press('Shift+Enter');
  await app.keyboard.press('Shift+Enter');
  await app.keyboard.type('Defaults to 3000.');
  await app.keyboard.press('Enter');
  await expect(review.getByText(/Committed [0-9a-f]{8} on the session’s branch/)).toBeVisible();
  expect(git(worktree, 'log', '-1', '--format=%s', 'port-config')).toBe('Read the port from PORT');
  expect(git(worktree, 'log', '-1', '--format=%b', 'port-config')).toBe('Defaults to 3000.');
  await expect(review.getByRole('region', { name: 'Commits on the branch' })).toContainText(
    'Read the port from PORT',
  );

  // Apply: the checkout gets the change as an uncommitted edit.
  await press(app, 'Apply to checkout');
  await expect(review.getByText(/Applied 1 file to .* as uncommitted edits/)).toBeVisible();
  expect(readFileSync(join(projects.app, SERVER), 'utf8')).toContain('process.env.PORT');
  expect(git(projects.app, 'log', '-1', '--format=%s')).toBe('initial');

  // The checkout changes the same line its own way: Apply is refused whole and names the file.
  const mine = 'const PORT = 4000;\nexport default PORT;\n';
  writeFileSync(join(projects.app, SERVER), mine);
  await press(app, 'Apply to checkout');
  const conflict = review.getByRole('alert');
  await expect(conflict).toContainText('Nothing was applied');
  await expect(conflict.getByRole('list', { name: 'Conflicting files' })).toContainText(SERVER);
  expect(readFileSync(join(projects.app, SERVER), 'utf8')).toBe(mine);
  await shots(app, 'worktree-review');
  await app.setViewportSize({ width: 1280, height: 800 });

  // Discard: the confirm names the commit no other branch holds; Cancel has the focus.
  await press(app, 'Discard…');
  const confirm = app.getByRole('dialog', { name: 'Discard the worktree?' });
  await expect(confirm.getByRole('list', { name: 'Commits lost' })).toContainText(
    'Read the port from PORT',
  );
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Discard' })).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(review).toContainText('were discarded');
  expect(existsSync(worktree)).toBe(false);
  expect(git(projects.app, 'branch', '--list', 'port-config')).toBe('');
  expect(readFileSync(join(projects.app, SERVER), 'utf8')).toBe(mine);
});

/** The host's opener is the stand-in browser, as $BROWSER: it logs what it was asked to open. */
const withOpener = test.extend<{ openerLog: string }>({
  // eslint-disable-next-line no-empty-pattern
  openerLog: async ({}, use) => {
    const t = tempDir('mewbo-e2e-opener-');
    await use(join(t.dir, 'opened.log'));
    t.cleanup();
  },
  hostEnv: async ({ fake, projects, openerLog }, use) => {
    void projects;
    await use({
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      BROWSER: standInBrowserCommand(openerLog),
    });
  },
});

withOpener(
  'a comment on lines of the Review diff, picked by mouse inline and by keyboard side by side, reaches the model quoting them; Open folder opens the worktree',
  async ({ app, script, projects, openerLog }) => {
    script.push({ toolCalls: [{ name: 'aider_edit_block_tool', args: { content: PORT_EDIT } }] });
    script.push({ text: 'The port comes from PORT now.' });
    test.setTimeout(120_000);
    await openProject(app, 'app');
    await press(app, 'New session: agent, worktree…');
    await app.keyboard.press('Tab');
    await app.keyboard.type('review-notes');
    await app.keyboard.press('Enter');
    await expect(app.locator('.session-header').getByText('⎇ review-notes')).toBeVisible();
    const box = app.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await app.keyboard.type('Make the port configurable');
    await app.keyboard.press('Enter');
    await expect(app.getByText('The port comes from PORT now.')).toBeVisible();

    await press(app, 'Review');
    const review = app.getByRole('region', { name: 'Review' });
    const grid = review.getByRole('grid', { name: /^Lines of src\/server\.ts/ });
    await expect(grid).toContainText('process.env.PORT');

    // Inline, by mouse: the added line's number, then Shift+press on the line under it.
    script.push({ text: 'I will keep 3000 as the fallback.' });
    await grid.locator('tr', { hasText: 'process.env.PORT' }).locator('td.ln').nth(1).click();
    await grid
      .locator('tr', { hasText: 'export default PORT' })
      .locator('td.ln')
      .nth(1)
      .click({ modifiers: ['Shift'] });
    await expect(grid.locator('td[aria-selected="true"]')).toHaveCount(2);
    const form = review.getByRole('form', { name: 'Comment on lines' });
    await expect(form).toContainText('src/server.ts, lines 1–2');
    await expect(form.getByRole('textbox', { name: 'Comment' })).toBeFocused();
    await app.keyboard.type('Keep 3000 when PORT is empty.');
    await app.keyboard.press('Enter');
    await expect(form).toHaveCount(0);
    await expect(
      review.getByRole('status').filter({ hasText: 'sent to the session' }),
    ).toBeVisible();
    await expect.poll(() => script.requests.length).toBe(3);
    const first = script.requests[2]!.transcript;
    expect(first).toContain('Review comment on src/server.ts, lines 1–2:');
    expect(first).toContain('+   1 | const PORT = Number(process.env.PORT ?? 3000);');
    expect(first).toContain('  2 2 | export default PORT;');
    expect(first).toContain('Keep 3000 when PORT is empty.');

    // Side by side, by keyboard: the old column's removed line and the one under it.
    script.push({ text: 'Noted about the old line.' });
    await press(app, 'Side by side');
    await grid.focus();
    await app.keyboard.press('Shift+ArrowDown');
    await expect(grid.locator('td[aria-selected="true"]')).toHaveCount(2);
    await expect(grid.locator('td[aria-selected="true"]').first()).toHaveText('const PORT = 3000;');
    await app.keyboard.press('Enter');
    await expect(form).toContainText(
      'src/server.ts, line 2 (and removed line 1 of the old version)',
    );
    await shots(app, 'worktree-review-comment');
    await app.setViewportSize({ width: 1280, height: 800 });
    await expect(form.getByRole('textbox', { name: 'Comment' })).toBeFocused();
    await app.keyboard.type('Why was the literal dropped?');
    await app.keyboard.press('Enter');
    await expect.poll(() => script.requests.length).toBe(4);
    const second = script.requests[3]!.transcript;
    expect(second).toContain(
      'Review comment on src/server.ts, line 2 (and removed line 1 of the old version):',
    );
    expect(second).toContain('- 1   | const PORT = 3000;');
    expect(second).toContain('Why was the literal dropped?');
    await expect(grid).toBeFocused();

    // Open branch: the worktree stays, and Open folder hands it to the system's opener.
    const worktree = git(projects.app, 'worktree', 'list', '--porcelain')
      .split('\n\n')
      .find((w) => w.includes('branch refs/heads/review-notes'))!
      .split('\n')[0]!
      .slice('worktree '.length);
    await press(app, 'Open folder');
    await expect(review.getByRole('status').filter({ hasText: 'Opened' })).toContainText(worktree);
    await expect.poll(() => pagesOpened(openerLog)).toEqual([pathToFileURL(worktree).href]);
  },
);

test('"Start every new session in a worktree" makes the New session button make one', async ({
  app,
  home,
}) => {
  await openProject(app, 'app');
  await press(app, 'New session: agent, worktree…');
  const dialog = app.getByRole('dialog', { name: 'New session' });
  const always = dialog.getByRole('checkbox', { name: /Start every new session of app/ });
  // Enabled once the settings are read (it shows their state).
  await expect(always).toBeEnabled();
  await always.focus();
  await app.keyboard.press('Space');
  await expect(always).toBeChecked();
  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  const config = JSON.parse(readFileSync(join(home, 'configs', 'app.json'), 'utf8')) as {
    worktrees?: { default_for?: string[] };
  };
  expect(config.worktrees?.default_for).toEqual(['app']);

  await press(app, 'New session');
  await expect(app.locator('.session-header .chip.branch')).toContainText('⎇ mewbo/');
  await expect(app.getByRole('button', { name: 'Review', exact: true })).toBeVisible();
});

test('deleting a worktree session keeps its worktree, or removes it after naming the work lost, by keyboard', async ({
  app,
  script,
  projects,
}) => {
  script.push({ toolCalls: [{ name: 'aider_edit_block_tool', args: { content: PORT_EDIT } }] });
  script.push({ text: 'The port comes from PORT now.' });
  await openProject(app, 'app');
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  const branchExists = (b: string) => git(projects.app, 'branch', '--list', b) !== '';
  const worktreeOf = (b: string) =>
    git(projects.app, 'worktree', 'list', '--porcelain')
      .split('\n\n')
      .find((w) => w.includes(`branch refs/heads/${b}`))
      ?.split('\n')[0]
      ?.slice('worktree '.length);

  const create = async (branch: string) => {
    await press(app, 'New session: agent, worktree…');
    const dialog = app.getByRole('dialog', { name: 'New session' });
    await expect(dialog.getByRole('radio', { name: /In a new worktree/ })).toBeFocused();
    await app.keyboard.press('Tab');
    await app.keyboard.type(branch);
    await app.keyboard.press('Enter');
    await expect(app.locator('.session-header').getByText(`⎇ ${branch}`)).toBeVisible();
  };
  /** Delete on the open session's row, as a person in the list presses it. */
  const deleteOpen = async () => {
    await sidebar.locator('button.session[aria-current="page"]').focus();
    await app.keyboard.press('Delete');
    const confirm = app.getByRole('dialog', { name: 'Delete session?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    return confirm;
  };

  // A session with work not committed: removing its worktree names the file that goes with it.
  await create('port-work');
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.focus();
  await app.keyboard.type('Make the port configurable');
  await app.keyboard.press('Enter');
  await expect(app.getByText('The port comes from PORT now.')).toBeVisible();
  const workTree = worktreeOf('port-work')!;
  expect(readFileSync(join(workTree, SERVER), 'utf8')).toContain('process.env.PORT');

  // A session with nothing in it: Delete keeps its worktree and branch by default.
  await create('keep-me');
  const kept = worktreeOf('keep-me')!;
  let confirm = await deleteOpen();
  await expect(confirm.getByRole('radio', { name: /Keep them at/ })).toBeChecked();
  await expect(confirm).toContainText(kept);
  await app.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete', exact: true })).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(sidebar.locator('.session-row').filter({ hasText: 'keep-me' })).toHaveCount(0);
  expect(existsSync(kept)).toBe(true);
  expect(branchExists('keep-me')).toBe(true);

  // The other: back to it, Delete, Shift+Tab to the choice, Down to Remove: the loss is named.
  await sidebar.getByRole('button', { name: /^Make the port configurable/ }).focus();
  await app.keyboard.press('Enter');
  await expect(app.locator('.session-header').getByText('⎇ port-work')).toBeVisible();
  confirm = await deleteOpen();
  await app.keyboard.press('Shift+Tab');
  await expect(confirm.getByRole('radio', { name: /Keep them at/ })).toBeFocused();
  await app.keyboard.press('ArrowDown');
  await expect(
    confirm.getByRole('radio', { name: 'Remove the worktree and the branch' }),
  ).toBeChecked();
  await expect(confirm.getByRole('list', { name: 'Files not committed' })).toContainText(SERVER);
  await shots(app, 'worktree-delete');
  await app.setViewportSize({ width: 1280, height: 800 });
  await confirm.getByRole('button', { name: 'Cancel' }).focus();
  await app.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete and remove' })).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(sidebar.getByRole('button', { name: /^Make the port configurable/ })).toHaveCount(0);
  expect(existsSync(workTree)).toBe(false);
  expect(branchExists('port-work')).toBe(false);
  // The checkout was never touched, and the kept worktree is still there.
  expect(readFileSync(join(projects.app, SERVER), 'utf8')).toBe(APP_FILES[SERVER]);
  expect(existsSync(kept)).toBe(true);
});
