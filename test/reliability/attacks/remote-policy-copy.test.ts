import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { remoteProjectFolder } from '../../../electron/host/remote/remote-project-mirror';
import { ofType, type Harness } from '../../integration/agent/harness';
import { remoteHarness, remoteSessionIn } from '../../integration/remote/remote-session';
import { startSshd, type Sshd } from '../../helpers/sshd';
import { plantHostileRemotePart, setHostileAnswers } from './hostile-remote-part';

// Attack (issue #29): the host's remote part is the attacker's program (anyone with a shell there
// can edit the bundle under the remote home), and its answer to "the project's policy files" is
// what the app copies into $MEWBO_HOME/state/remote-projects/<host>/<path>. Each answer below
// names files that would land outside that folder (`../`, an absolute path, a backslash path), a
// NUL byte, names outside the policy files' list (a git hook), a file over 256 KiB, more than 500
// files. Each control writes the same answer the way the copy is written, without the checks
// (join under the folder, then write), and shows the harm: a file outside the folder, a name off
// the list, a copy cut in half. Then the app, asked by a session's step, refuses the whole answer
// with an error naming what was wrong, and writes nothing of it.

type File = { path: string; text: string };

let sshd: Sshd;
let h: Harness;
let session: string;
let copy: string;
const MARK = 'HOSTILE-ANSWER-WAS-WRITTEN';

beforeAll(async () => {
  sshd = await startSshd();
  plantHostileRemotePart(sshd, { calls: {} });
  h = await remoteHarness(sshd);
  const dir = join(sshd.dir, 'proj');
  session = await remoteSessionIn(h, sshd, dir);
  copy = remoteProjectFolder(join(h.home, 'state', 'remote-projects'), `ssh://${sshd.alias}${dir}`);
}, 120_000);
afterAll(async () => {
  await h?.close();
  await sshd?.stop();
});

/** The write step of the copy with no check of the answer: what a trusting app would do. */
function unprotectedCopy(folder: string, files: File[]): void {
  for (const f of files) {
    mkdirSync(dirname(join(folder, f.path)), { recursive: true });
    writeFileSync(join(folder, f.path), f.text);
  }
}

/** Every file under `dir` (relative), or none when it is not there. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** One turn of the session with the hostile part answering `files`: the run's last state. */
async function stepWith(files: File[]) {
  setHostileAnswers(sshd, { calls: { 'project.policyFiles': { files } } });
  h.script.push({ text: 'done' });
  const from = await h.send(session, 'hello');
  const events = await h.waitRunEnd(session, from, 60_000);
  return ofType(events, 'run_state')
    .filter((e) => e.seq >= from)
    .at(-1)!;
}

/** The same turn's message refused (the app reads the copy before it takes the message). */
async function refusedWith(files: File[]) {
  setHostileAnswers(sshd, { calls: { 'project.policyFiles': { files } } });
  return h.invokeError('sessions.send', { id: session, text: 'hello' });
}

/** A sandbox folder laid out as the desktop home is, for the controls. */
function controlHome(name: string): { folder: string; home: string } {
  const home = join(sshd.dir, `control-${name}`);
  return { home, folder: join(home, relative(h.home, copy)) };
}

const claudeMd: File = { path: 'CLAUDE.md', text: `${MARK}\n` };

describe("a hostile host's answer to the project's policy files", () => {
  it('control: an answer of policy files only fills the copy', async () => {
    const end = await stepWith([claudeMd, { path: '.mewbo/commands/c.md', text: 'c' }]);
    expect(end.state).toBe('idle');
    expect(filesUnder(copy)).toEqual(['.mewbo/commands/c.md', 'CLAUDE.md']);
    expect(readFileSync(join(copy, 'CLAUDE.md'), 'utf8')).toBe(`${MARK}\n`);
  }, 120_000);

  // Names that land outside the copy: `../` below a commands folder, to a file in $MEWBO_HOME.
  const escapes: { name: string; path: (home: string, folder: string) => string }[] = [
    {
      name: '../ below .mewbo/commands into $MEWBO_HOME',
      path: (home, folder) =>
        `.mewbo/commands/${relative(join(folder, '.mewbo/commands'), join(home, 'configs', 'escaped.md'))}`,
    },
    {
      name: '../ as a skill folder name',
      path: (home, folder) =>
        `.claude/skills/../${relative(join(folder, '.claude'), join(home, 'escaped-skill'))}/SKILL.md`,
    },
  ];
  for (const e of escapes)
    it(`${e.name}: written unchecked it lands outside the copy; the app refuses it`, async () => {
      const control = controlHome(e.name.replace(/\W+/g, '-'));
      const controlPath = e.path(control.home, control.folder);
      unprotectedCopy(control.folder, [{ path: controlPath, text: MARK }]);
      const landed = join(control.folder, controlPath);
      expect(relative(control.folder, landed).startsWith('..')).toBe(true);
      expect(readFileSync(landed, 'utf8')).toBe(MARK);

      const path = e.path(h.home, copy);
      const refused = await refusedWith([
        { ...claudeMd, text: 'not this' },
        { path, text: MARK },
      ]);
      expect(refused.code).toBe('remote_refused');
      expect(refused.message).toContain(`the remote part on ${sshd.alias} answered with`);
      expect(refused.message).toContain(JSON.stringify(path));
      expect(existsSync(join(copy, path))).toBe(false);
      expect(readFileSync(join(copy, 'CLAUDE.md'), 'utf8')).toBe(`${MARK}\n`);
    }, 120_000);

  const offList: { name: string; files: File[]; says: string }[] = [
    {
      name: 'an absolute path',
      files: [{ path: '/etc/cron.d/evil', text: MARK }],
      says: '"/etc/cron.d/evil"',
    },
    {
      name: 'a backslash path that a Windows-style reader takes for ../',
      files: [{ path: '.mewbo\\..\\..\\evil.md', text: MARK }],
      says: JSON.stringify('.mewbo\\..\\..\\evil.md'),
    },
    {
      name: 'a git hook (a name outside the list)',
      files: [{ path: '.git/hooks/pre-commit', text: `#!/bin/sh\necho ${MARK}\n` }],
      says: '".git/hooks/pre-commit"',
    },
    {
      name: 'a file over 256 KiB',
      files: [{ path: 'AGENTS.md', text: 'x'.repeat(256 * 1024 + 1) }],
      says: 'AGENTS.md of',
    },
    {
      name: 'more than 500 files',
      files: Array.from({ length: 500 }, (_, i) => ({
        path: `.mewbo/commands/c${i}.md`,
        text: MARK,
      })),
      says: '501 policy files', // with the CLAUDE.md every answer here carries
    },
  ];
  for (const o of offList)
    it(`${o.name}: written unchecked it lands in the copy; the app refuses the whole answer`, async () => {
      const control = controlHome(o.name.replace(/\W+/g, '-'));
      unprotectedCopy(control.folder, o.files);
      expect(filesUnder(control.folder).length).toBe(o.files.length);

      const refused = await refusedWith([{ ...claudeMd, text: 'not this' }, ...o.files]);
      expect(refused.code).toBe('remote_refused');
      expect(refused.message).toContain(o.says);
      expect(refused.message).toContain(`remove ~/.mewbo-remote on ${sshd.alias}`);
      expect(filesUnder(copy)).toEqual(['.mewbo/commands/c.md', 'CLAUDE.md']);
      expect(readFileSync(join(copy, 'CLAUDE.md'), 'utf8')).toBe(`${MARK}\n`);
    }, 120_000);

  it('a NUL byte in a name: written unchecked the copy is left half-written; the app writes none of it', async () => {
    const files: File[] = [
      { path: 'AGENTS.md', text: MARK },
      { path: '.mewbo/commands/a\0.md', text: MARK },
    ];
    const control = controlHome('nul');
    expect(() => unprotectedCopy(control.folder, files)).toThrow(/null bytes/);
    expect(filesUnder(control.folder)).toEqual(['AGENTS.md']);

    const refused = await refusedWith(files);
    expect(refused.code).toBe('remote_refused');
    expect(refused.message).toContain(JSON.stringify('.mewbo/commands/a\0.md'));
    expect(filesUnder(copy)).toEqual(['.mewbo/commands/c.md', 'CLAUDE.md']);
  }, 120_000);
});
