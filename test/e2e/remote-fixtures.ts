import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as agentTest } from './agent-fixtures';
import { startSshd, type Sshd, type SshdOptions } from '../helpers/sshd';
import { tempDir } from '../helpers/temp';

// The e2e specs of projects on SSH hosts (issue #29): the agent fixtures plus a real sshd on
// 127.0.0.1 (test/helpers/sshd.ts) that `mewbo serve` reaches through its own ssh config, in
// auto mode unless a spec's config says otherwise.

export const test = agentTest.extend<{ sshd: Sshd; sshdOptions: SshdOptions }>({
  sshdOptions: [{}, { option: true }],
  sshd: async ({ sshdOptions }, use) => {
    const sshd = await startSshd(sshdOptions);
    await use(sshd);
    await sshd.stop();
  },
  config: async ({ sshd }, use) =>
    use({ remote: { ssh_config: sshd.clientConfig }, permission_mode: 'auto' }),
});

/** Two views of one path, as two machines would have them (a bind mount on the test's sshd). */
export interface Views {
  /** The project's path: this computer's folder, a repository on branch desktop-copy. */
  desk: string;
  /** What the host shows at that path: a repository on branch feature/on-host. */
  host: string;
}

function repo(dir: string, branch: string, files: Record<string, string>): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git('init', '-q', '-b', branch);
  // Its user is someone to git (the remote home has no ~/.gitconfig): a Review's Commit works.
  git('config', 'user.name', 'Mewbo Test');
  git('config', 'user.email', 'test@example.com');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
}

/**
 * A remote project `vision` whose sshd's commands see another repository at the project's path:
 * what the host's git did shows on the host's repository, and this computer's folder of the same
 * path shows whether anything ran here.
 */
export const hostViewTest = test.extend<{ views: Views }>({
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

export { expect } from './agent-fixtures';
