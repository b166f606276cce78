import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import { removeSessionWorktree } from '../../../electron/host/worktrees/remove-worktree';
import { Harness } from '../../integration/agent/harness';
import { startSshd, type Sshd } from '../../helpers/sshd';
import { hostileCalls, plantHostileRemotePart, setHostileAnswers } from './hostile-remote-part';

// Attack (issue #29 part 3): a remote project's session worktree is made by its host, and the
// host's answer names the worktree's folder, its checkout and its branch. A host whose remote part
// was replaced answers with this computer's folders: the worktree "is" a folder the user keeps
// here. Used as a local record, Discard's `git worktree remove`, failing there, falls back to
// deleting the folder (the control shows it: the folder is gone), and this computer's shells would
// be granted it. The app keeps a remote record out of everything local: Discard asks the host,
// and the folder here is untouched. Answers no genuine host gives (a path with `..`, a relative
// one, a branch that reads as an option, a root outside the worktree, a control character) are
// refused whole, naming the field, and no session is made.

let sshd: Sshd;
let h: Harness;
let precious: string;
const URL_PATH = '/srv/far-project';
const SHA = 'a'.repeat(40);

beforeAll(async () => {
  sshd = await startSshd();
  plantHostileRemotePart(sshd, { calls: {} });
  h = await Harness.start({
    config: {
      remote: { ssh_config: sshd.clientConfig },
      remote_projects: { far: { url: `ssh://${sshd.alias}${URL_PATH}` } },
    },
  });
  precious = join(sshd.dir, 'precious');
}, 120_000);
afterAll(async () => {
  await h?.close();
  await sshd?.stop();
});

/** A folder of this computer holding the user's file. */
function plantPrecious(): void {
  mkdirSync(precious, { recursive: true });
  writeFileSync(join(precious, 'thesis.tex'), 'years of work\n');
}

/** The host's answer to worktree.create: a worktree at `path` (default: the precious folder). */
function created(over: Partial<SessionWorktree> & { root?: string } = {}) {
  const { root, ...wt } = over;
  const worktree = {
    path: precious,
    branch: 'mewbo/session',
    base: SHA,
    checkout: sshd.dir,
    git_dir: join(sshd.dir, '.git'),
    name: 'session',
    ...wt,
  };
  return {
    worktree,
    root: root ?? worktree.path,
    copy: { copied: [], skipped: [] },
  };
}

function answer(create: unknown): void {
  setHostileAnswers(sshd, {
    calls: {
      'worktree.create': create,
      'worktree.remove': {},
      'worktree.count': { changed_files: 0 },
      'git.state': { git: null },
      'project.policyFiles': { files: [] },
    },
  });
}

describe("a hostile host's worktree paths", () => {
  it('control: a record naming a folder here, removed as a local worktree, deletes that folder', async () => {
    plantPrecious();
    // It throws after the deletion (git's prune finds no repository there): too late.
    await removeSessionWorktree(created().worktree).catch(() => {});
    expect(existsSync(join(precious, 'thesis.tex'))).toBe(false);
  });

  it("the app makes the session, never grants this computer's shells the folder, and Discard asks the host", async () => {
    plantPrecious();
    answer(created());
    const { session } = await h.invoke('sessions.create', { project: 'far', worktree: true });
    expect(session.worktree?.path).toBe(precious);
    expect(Object.values(h.host.worktrees.asProjects())).not.toContain(precious);
    expect(h.host.worktrees.grantFor(session.id, precious)).toBeUndefined();

    await h.invoke('worktrees.discard', { id: session.id });
    expect(hostileCalls(sshd)).toContain('worktree.remove');
    expect(readFileSync(join(precious, 'thesis.tex'), 'utf8')).toBe('years of work\n');
    const folder = await h.invokeError('worktrees.openFolder', { id: session.id });
    expect(folder.code).toBe('worktree_removed');
  }, 120_000);

  const malformed: { name: string; answer: () => unknown; field: string }[] = [
    {
      name: 'a path climbing with ..',
      answer: () => created({ path: `${URL_PATH}.worktrees/../../../home/me` }),
      field: 'worktree.path',
    },
    { name: 'a relative path', answer: () => created({ path: 'home/me' }), field: 'worktree.path' },
    {
      name: 'a checkout with a line break',
      answer: () => created({ checkout: '/srv/x\nInjected line' }),
      field: 'worktree.checkout',
    },
    {
      name: 'a branch that reads as an option',
      answer: () => created({ branch: '--upload-pack=touch /tmp/pwned' }),
      field: 'worktree.branch',
    },
    {
      name: 'a base that is no commit id',
      answer: () => created({ base: 'HEAD --output=/etc/passwd' }),
      field: 'worktree.base',
    },
    {
      name: 'a session root outside its worktree',
      answer: () => created({ path: `${URL_PATH}.worktrees/s`, root: '/home/me' }),
      field: 'a session root outside its worktree',
    },
  ];
  for (const m of malformed)
    it(`${m.name}: refused whole, naming the field, and no session is made`, async () => {
      const before = (await h.invoke('sessions.list', {})).sessions.length;
      answer(m.answer());
      const refused = await h.invokeError('sessions.create', { project: 'far', worktree: true });
      expect(refused.code).toBe('remote_refused');
      expect(refused.message).toContain('worktree.create');
      expect(refused.message).toContain(m.field);
      expect(refused.message).toContain('nothing of that answer was used');
      expect((await h.invoke('sessions.list', {})).sessions).toHaveLength(before);
    }, 120_000);
});
