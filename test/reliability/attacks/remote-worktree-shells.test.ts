import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import type { RemoteHost } from '../../../electron/host/remote/remote-host';
import type { SshTransport } from '../../../electron/host/remote/ssh-transport';
import { findLauncher, probeLandlock } from '../../../electron/host/sandbox/launcher';
import { startSshd, type Sshd } from '../../helpers/sshd';
import { git, hostRepo } from '../../helpers/host-repo';
import { tempDir } from '../../helpers/temp';
import { openAttackHost, type AttackHost } from './remote-attack-host';

// A session of a project on an SSH host in its own worktree (issue #29 part 3): its confined shell
// on the host commits to the session's branch, as a local worktree session's does (the remote
// part works out the repository's git parts from the worktree on the host), and it still cannot
// write the host's checkout, another session's worktree entry, the repository's hooks or its
// config. Each write is first done by an unconfined process on the host (an ssh command), so the
// refusals cannot pass because the thing is simply not there. The sshd runs on this machine: its
// kernel is the host's.

const installRoot = fileURLToPath(new URL('../../..', import.meta.url));
const launcher = findLauncher(installRoot);
const probe = launcher ? await probeLandlock(launcher) : null;
const noLandlock = probe && probe.abi > 0 ? null : (probe?.reason ?? 'the launcher is not built');

let sshd: Sshd;
let host: AttackHost;
let ssh: SshTransport;
let remote: RemoteHost;
let mine: { worktree: SessionWorktree; root: string };
let other: { worktree: SessionWorktree; root: string };
const appHome = tempDir('mewbo-rwt-shells-app-');
const repo = () => join(sshd.dir, 'repo');

async function newWorktree(branch: string) {
  const made = await remote.invoke('worktree.create', {
    root: repo(),
    request: { branch },
    title: branch,
    copy: [],
  });
  return { worktree: made.worktree, root: made.root };
}

/** `command` in the session's confined shell in its worktree on the host. */
function confined(command: string) {
  return host.confined('s_rwt_shell', mine.root, command, mine.worktree.path);
}

describe.skipIf(noLandlock !== null)(
  `a worktree session's shell on an SSH host${noLandlock ? ` (skipped: ${noLandlock})` : ''}`,
  () => {
    beforeAll(async () => {
      sshd = await startSshd();
      hostRepo(repo(), { 'notes.txt': 'one\n' });
      host = await openAttackHost(sshd, appHome.dir);
      ({ remote, ssh } = host);
      mine = await newWorktree('feature/mine');
      other = await newWorktree('feature/other');
    }, 120_000);
    afterAll(async () => {
      await host?.dispose();
      await sshd?.stop();
      appHome.cleanup();
    });

    it("commits to the session's branch with git, confined", async () => {
      const r = await confined(
        'echo two >> notes.txt && git commit -q -am "from the shell" && git log -1 --format=%s',
      );
      expect(r.out).toContain('from the shell');
      expect(r.code).toBe(0);
      expect(git(repo(), 'log', '-1', '--format=%s', 'feature/mine')).toBe('from the shell');
      // The checkout's branch and files are where they were.
      expect(git(repo(), 'log', '-1', '--format=%s', 'main')).toBe('initial');
      expect(readFileSync(join(repo(), 'notes.txt'), 'utf8')).toBe('one\n');
    });

    it("gives the worktree's git parts to no session the app does not record in that worktree", async () => {
      const commit = (who: string) =>
        `echo ${who} >> notes.txt && git commit -q -am "${who}" 2>&1; git log -1 --format=%s`;
      // The session recorded in this worktree commits (the control: the same command works).
      expect((await confined(commit('recorded'))).out).toContain('recorded');
      // A session opened on the worktree's folder as its project, and one recorded in another
      // worktree, run the same command there: git cannot write its index or objects.
      for (const [id, record] of [
        ['s_rwt_plain', undefined],
        ['s_rwt_other', other.worktree.path],
      ] as const) {
        const r = await host.confined(id, mine.root, commit(id), record);
        expect(r.out).toMatch(/index\.lock.*Permission denied|Permission denied/);
        expect(git(repo(), 'log', '-1', '--format=%s', 'feature/mine')).toBe('recorded');
      }
    });

    // Each writes WHO at a place the session's shell must not change: unconfined, then confined.
    const attacks: {
      what: string;
      write: (who: string) => string;
      wrote: (who: string) => boolean;
    }[] = [
      {
        what: "the host checkout's files",
        write: (who) => `echo ${who} >> "${join(repo(), 'notes.txt')}"`,
        wrote: (who) => readFileSync(join(repo(), 'notes.txt'), 'utf8').includes(who),
      },
      {
        what: "another session's worktree entry in the git directory",
        write: (who) =>
          `echo ${who} > "${join(other.worktree.git_dir, 'worktrees', other.worktree.name, who)}"`,
        wrote: (who) =>
          existsSync(join(other.worktree.git_dir, 'worktrees', other.worktree.name, who)),
      },
      {
        what: "the repository's hooks",
        write: (who) => `echo 'touch /tmp/${who}' > "${join(repo(), '.git', 'hooks', who)}"`,
        wrote: (who) => existsSync(join(repo(), '.git', 'hooks', who)),
      },
      {
        what: "the repository's config",
        write: (who) =>
          `printf '[probe]\\n\\twho = ${who}\\n' >> "${join(repo(), '.git', 'config')}"`,
        wrote: (who) => readFileSync(join(repo(), '.git', 'config'), 'utf8').includes(who),
      },
    ];
    it.each(attacks)('cannot write $what', async ({ write, wrote }) => {
      const unconfined = await ssh.exec(write('byssh'));
      expect(unconfined.code).toBe(0);
      expect(wrote('byssh')).toBe(true);
      const r = await confined(write('byshell'));
      expect(r.code).not.toBe(0);
      expect(r.out).toMatch(/Permission denied/);
      expect(wrote('byshell')).toBe(false);
    });

    it("cannot win another session's entry by pointing its worktree's .git file there", async () => {
      const otherEntry = join(other.worktree.git_dir, 'worktrees', other.worktree.name);
      const pointer = join(mine.worktree.path, '.git');
      const own = readFileSync(pointer, 'utf8');
      const point = (who: string) =>
        `printf 'gitdir: %s\\n' "${otherEntry}" > "${pointer}"; echo ${who}`;
      // Unconfined, the pointer is rewritten (and put back).
      expect((await ssh.exec(point('byssh'))).code).toBe(0);
      expect(readFileSync(pointer, 'utf8')).toContain(otherEntry);
      writeFileSync(pointer, own);
      // Confined, it is held as it was, and the next shell still cannot write the other entry.
      await confined(point('byshell'));
      expect(readFileSync(pointer, 'utf8')).toBe(own);
      const r = await confined(`echo byshell > "${join(otherEntry, 'taken')}"`);
      expect(r.out).toMatch(/Permission denied/);
      expect(existsSync(join(otherEntry, 'taken'))).toBe(false);
    });
  },
);
