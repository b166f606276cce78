import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { hostViewTest as test, expect } from './remote-fixtures';
import { shots } from './fixtures';
import { openProject } from './agent-fixtures';

// A worktree session of a project on an SSH host in the window (issue #29 part 3), by keyboard,
// against `mewbo serve` and a real sshd whose commands see another repository at the project's
// path: New session in a worktree makes it with the host's git, the sidebar shows its branch and
// changed files, and the Review reads its diff from the host, sends a comment on a line, commits,
// applies onto the host's checkout, is refused on a conflict naming the file, and discards it.
// This computer's repository of the same path never moves.

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** Focuses a control and presses Enter, as a person tabbing to it would. */
async function press(app: Page, name: string): Promise<void> {
  await app.getByRole('button', { name, exact: true }).focus();
  await app.keyboard.press('Enter');
}

const EDIT =
  'notes.txt\n```\n<<<<<<< SEARCH\non the host\n=======\non the host, edited there\n>>>>>>> REPLACE\n```\n';

test('a remote worktree session is made, reviewed, commented, committed, applied, refused on a conflict and discarded by keyboard', async ({
  app,
  script,
  views,
}) => {
  // Installing the remote part, two turns, a Review's steps and eight screenshots, on a loaded machine.
  test.setTimeout(300_000);
  script.push(
    { toolCalls: [{ name: 'aider_edit_block_tool', args: { content: EDIT } }] },
    { text: 'Edited the notes on the host.' },
  );
  await openProject(app, 'vision');

  await press(app, 'New session: agent, worktree…');
  const dialog = app.getByRole('dialog', { name: 'New session' });
  // Offered before the host is connected: its git makes the worktree or says why it cannot.
  await expect(dialog.getByRole('radio', { name: /In a new worktree on/ })).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(dialog.getByRole('textbox', { name: 'Branch' })).toBeFocused();
  await app.keyboard.type('far-notes');
  await shots(app, 'remote-worktree-new-session');
  await app.setViewportSize({ width: 1280, height: 800 });
  await app.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0, { timeout: 60_000 });
  await expect(app.locator('.session-header').getByText('⎇ far-notes')).toBeVisible();
  const worktree = `${views.desk}.worktrees/far-notes`;
  expect(git(views.host, 'branch', '--list', 'far-notes')).toContain('far-notes');

  const box = app.getByRole('textbox', { name: 'Message' });
  await box.focus();
  await app.keyboard.type('Edit the notes');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Edited the notes on the host.')).toBeVisible({ timeout: 90_000 });
  expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe('on the host, edited there\n');

  // The sidebar row: its branch, and the files it changed as the host's git counted them.
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  const row = sidebar.locator('.session-row').filter({ hasText: 'Edit the notes' });
  await expect(row.locator('.row-branch')).toHaveText('⎇ far-notes');
  await expect(row.locator('.row-changed')).toHaveText('1 file', { timeout: 30_000 });

  await press(app, 'Review');
  const review = app.getByRole('region', { name: 'Review' });
  await expect(review.getByRole('status').filter({ hasText: 'changed' })).toHaveText(
    '1 file changed · 0 commits · 1 not committed',
  );
  await expect(review.getByRole('region', { name: 'Changes' })).toContainText(
    'on the host, edited there',
  );
  // The host's place of the worktree, to copy: no button that would open a folder here.
  await expect(review).toContainText(`on the host at`);
  await expect(review.getByRole('button', { name: 'Open folder' })).toHaveCount(0);

  // A comment on the added line, by keyboard, reaches the model quoting it.
  script.push({ text: 'Noted.' });
  const grid = review.getByRole('grid', { name: /^Lines of notes\.txt/ });
  await grid.focus();
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Enter');
  const form = review.getByRole('form', { name: 'Comment on lines' });
  await expect(form.getByRole('textbox', { name: 'Comment' })).toBeFocused();
  await app.keyboard.type('Say which host.');
  await app.keyboard.press('Enter');
  await expect(review.getByRole('status').filter({ hasText: 'sent to the session' })).toBeVisible();
  await expect.poll(() => script.requests.at(-1)?.transcript ?? '').toContain('Say which host.');
  expect(script.requests.at(-1)!.transcript).toContain('Review comment on notes.txt');

  // Commit on the session's branch, on the host.
  const message = review.getByRole('textbox', { name: 'Commit message' });
  await message.focus();
  await app.keyboard.type('Edit the notes on the host');
  await app.keyboard.press('Enter');
  await expect(review.getByText(/Committed [0-9a-f]{8} on the session’s branch/)).toBeVisible({
    timeout: 30_000,
  });
  expect(git(views.host, 'log', '-1', '--format=%s', 'far-notes')).toBe(
    'Edit the notes on the host',
  );

  // Apply onto the host's checkout; this computer's folder of the same path stays as it was.
  await press(app, 'Apply to checkout');
  await expect(review.getByText(/Applied 1 file to .* as uncommitted edits/)).toBeVisible();
  expect(readFileSync(join(views.host, 'notes.txt'), 'utf8')).toBe('on the host, edited there\n');
  expect(readFileSync(join(views.desk, 'notes.txt'), 'utf8')).toBe('on the desktop\n');

  // The host's checkout changes the same line its own way: refused whole, the file named.
  writeFileSync(join(views.host, 'notes.txt'), 'on the host, by hand\n');
  await press(app, 'Apply to checkout');
  const conflict = review.getByRole('alert');
  await expect(conflict).toContainText('Nothing was applied');
  await expect(conflict.getByRole('list', { name: 'Conflicting files' })).toContainText(
    'notes.txt',
  );
  expect(readFileSync(join(views.host, 'notes.txt'), 'utf8')).toBe('on the host, by hand\n');
  await shots(app, 'remote-worktree-review');
  await app.setViewportSize({ width: 1280, height: 800 });

  // Discard after the confirm naming the commit lost: the host's worktree and branch go.
  await press(app, 'Discard…');
  const confirm = app.getByRole('dialog', { name: 'Discard the worktree?' });
  await expect(confirm.getByRole('list', { name: 'Commits lost' })).toContainText(
    'Edit the notes on the host',
  );
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await app.keyboard.press('Tab');
  await app.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(review).toContainText('were discarded');
  expect(existsSync(worktree)).toBe(false);
  expect(git(views.host, 'branch', '--list', 'far-notes')).toBe('');
  expect(git(views.desk, 'branch', '--format=%(refname:short)')).toBe('desktop-copy');
  expect(git(views.desk, 'status', '--porcelain')).toBe('');
  await expect(row.locator('.row-worktree')).toHaveText('worktree discarded');
});
