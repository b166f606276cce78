import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as remoteTest, expect } from './remote-fixtures';
import { shots } from './fixtures';
import { openProject } from './agent-fixtures';
import { tempDir } from '../helpers/temp';

// A remote project's git state in the window (issue #29 part 3), in Chromium against
// `mewbo serve` and a real sshd whose commands see another folder at the project's path (a bind
// mount, as two machines would): the picker and the session's header show the branch and the
// files not committed that the host's git reads there, never those of this computer's folder of
// the same path.

interface Views {
  /** The project's path: this computer's folder, a repository on branch desktop-copy. */
  desk: string;
  /** What the host shows at that path: a repository on branch feature/on-host. */
  host: string;
}

function repo(dir: string, branch: string, files: Record<string, string>): void {
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Mewbo Test', '-c', 'user.email=test@example.com', ...args],
      { cwd: dir, stdio: 'ignore' },
    );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git('init', '-q', '-b', branch);
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
}

const test = remoteTest.extend<{ views: Views }>({
  // eslint-disable-next-line no-empty-pattern
  views: async ({}, use) => {
    const desk = tempDir('mewbo-e2e-desk-');
    const host = tempDir('mewbo-e2e-host-');
    repo(desk.dir, 'desktop-copy', { 'notes.txt': 'on the desktop\n' });
    repo(host.dir, 'feature/on-host', { 'notes.txt': 'on the host\n' });
    // Not committed on the host: an untracked draft.
    writeFileSync(join(host.dir, 'draft.txt'), 'a draft\n');
    await use({ desk: desk.dir, host: host.dir });
    desk.cleanup();
    host.cleanup();
  },
  sshdOptions: async ({ views }, use) => use({ hostView: { [views.desk]: views.host } }),
  config: async ({ sshd, views }, use) =>
    use({
      remote: { ssh_config: sshd.clientConfig },
      permission_mode: 'auto',
      remote_projects: { vision: { url: `ssh://${sshd.alias}${views.desk}` } },
    }),
});

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
