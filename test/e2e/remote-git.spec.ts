import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostViewTest, expect } from './remote-fixtures';
import { shots } from './fixtures';
import { openProject } from './agent-fixtures';

// A remote project's git state in the window (issue #29 part 3), in Chromium against
// `mewbo serve` and a real sshd whose commands see another folder at the project's path (a bind
// mount, as two machines would): the picker and the session's header show the branch and the
// files not committed that the host's git reads there, never those of this computer's folder of
// the same path.

const test = hostViewTest;

test("a remote session's header and the picker show the branch and changes the host's git reads", async ({
  app,
  script,
  views,
}) => {
  // Installing the remote part, a turn and eight screenshots, on a loaded machine.
  test.setTimeout(300_000);
  script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo more >> notes.txt' } }] },
    { text: 'Added a line on the host.' },
  );
  await openProject(app, 'vision');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await app.getByRole('textbox', { name: 'Message' }).fill('add a line to the notes');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Added a line on the host.')).toBeVisible({ timeout: 90_000 });

  // The run stopped: the host's git counted the draft and the edited notes.
  const header = app.locator('.session-header');
  await expect(header.locator('.chip.branch')).toHaveText('⎇ feature/on-host · 2 changed', {
    timeout: 30_000,
  });
  await expect(header).not.toContainText('desktop-copy');
  // The shell ran there: this computer's folder of the same path is as it was.
  expect(readFileSync(join(views.desk, 'notes.txt'), 'utf8')).toBe('on the desktop\n');
  await shots(app, 'remote-session-git');

  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  const row = picker.getByRole('option', { name: /vision/ }).first();
  await expect(row).toContainText(`${views.desk} · feature/on-host`);
  await expect(row).toContainText('connected');
  await expect(picker).not.toContainText('desktop-copy');
  await shots(app, 'picker-remote-git');
});
