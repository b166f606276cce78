import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './remote-fixtures';
import { shots } from './fixtures';

// A session on a remote project from the picker, in Chromium against `mewbo serve` and a real
// sshd (issue #29): the project is added by its ssh:// URL, opened, a session started in it, and
// the model's shell runs in the folder on the host; the picker then shows the host connected.

test('a session started from the picker on a remote project runs its shell on the host', async ({
  app,
  sshd,
  script,
}) => {
  const folder = join(sshd.remoteHome, 'site');
  mkdirSync(folder);
  writeFileSync(join(folder, 'notes.txt'), 'written on the host\n');
  script.push(
    {
      toolCalls: [
        { name: 'aider_shell_tool', args: { command: 'cat notes.txt; printf %s "$HOME"' } },
      ],
    },
    { text: 'The notes say it was written on the host.' },
  );

  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await app.keyboard.type(`ssh://${sshd.alias}${folder}`);
  await app.keyboard.press('Enter');
  const added = picker.getByRole('option', { name: /site/ }).first();
  await expect(added).toHaveAttribute('aria-selected', 'true');
  await expect(added).toContainText('disconnected');
  // Enter again opens it: the sidebar is in the remote project.
  await app.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await expect(
    app.getByRole('navigation', { name: 'Sessions' }).locator('.project-name'),
  ).toHaveText('site');

  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await app.getByRole('textbox', { name: 'Message' }).fill('what do the notes say?');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const shell = app.getByRole('article', { name: /cat notes\.txt/ });
  // The host's file, and the host's HOME (sshd's SetEnv), not this computer's.
  await expect(shell).toContainText('written on the host', { timeout: 60_000 });
  await expect(shell).toContainText(sshd.remoteHome);
  await expect(app.getByText('The notes say it was written on the host.')).toBeVisible();
  await shots(app, 'remote-session');

  await app.keyboard.press('Control+P');
  const row = picker.getByRole('option', { name: /site/ }).first();
  await expect(row).toContainText('connected');
  await expect(row).not.toContainText('disconnected');
  await shots(app, 'picker-remote-connected');
});
