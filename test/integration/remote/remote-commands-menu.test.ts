import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Harness } from '../agent/harness';
import { startSshd, type Sshd } from '../../helpers/sshd';
import { tempDir } from '../../helpers/temp';
import { remoteHarness, remoteSessionIn } from './remote-session';

// The composer's `/` menu (`commands.list`) of a session on an SSH host lists the skills and
// commands of the project there, read from the app's copy of the host's files, never those of the
// desktop's folder of the same path. The sshd shows its commands another folder at the project's
// path (hostView) than the desktop sees there; the control is a local session of that desktop
// folder, whose menu has the desktop's skill, so its absence from the remote menu means something.

const desktop = tempDir('mewbo-menu-desktop-');
const host = tempDir('mewbo-menu-host-');
const project = join(desktop.dir, 'proj');
const skill = (name: string) => `---\nname: ${name}\ndescription: the ${name}\n---\nDo it.\n`;

function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

let sshd: Sshd;
let h: Harness;
beforeAll(async () => {
  writeTree(project, {
    '.mewbo/skills/desktop-skill/SKILL.md': skill('desktop-skill'),
    '.mewbo/commands/desktop-command.md': 'Run the desktop command.\n',
  });
  writeTree(host.dir, {
    '.mewbo/skills/host-skill/SKILL.md': skill('host-skill'),
    '.mewbo/commands/host-command.md': 'Run the host command.\n',
  });
  sshd = await startSshd({ hostView: { [project]: host.dir } });
  h = await remoteHarness(sshd);
}, 120_000);
afterAll(async () => {
  await h?.close();
  await sshd?.stop();
  desktop.cleanup();
  host.cleanup();
});

const namesOf = async (id: string) =>
  (await h.invoke('commands.list', { id })).commands.map((c) => c.name).sort();

describe("a remote session's / menu", () => {
  it("control: a local session of the desktop folder lists the desktop's skill and command", async () => {
    await h.invoke('trust.grant', { path: project });
    const local = await h.host.sessions.create({ title: 'local', project: null, root: project });
    expect(await namesOf(local.id)).toEqual(
      expect.arrayContaining(['desktop-command', 'desktop-skill']),
    );
  });

  it("lists the host project's skill and command, none of the desktop folder of that path", async () => {
    const id = await remoteSessionIn(h, sshd, project);
    await h.invoke('trust.grant', { path: `ssh://${sshd.alias}${project}` });
    const names = await namesOf(id);
    expect(names).toEqual(expect.arrayContaining(['host-command', 'host-skill']));
    expect(names).not.toContain('desktop-skill');
    expect(names).not.toContain('desktop-command');
  }, 120_000);
});
