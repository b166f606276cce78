import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { jsonLines } from '../../helpers/mewbo-cli';
import { startRemoteRun, type RemoteRun } from '../../helpers/remote-run';
import { tempDir } from '../../helpers/temp';

// A project on an SSH host brings its instructions, skills and hooks from the host (issue #29
// part 3), and workspace trust judges the host's files. The sshd shows its commands another
// folder at the project's path (hostView) than the desktop sees there, as two machines would: a
// file read on the wrong side says "desktop", one run on the wrong side says so too.

type Line = {
  type: string;
  hook_event?: string;
  command?: string;
  outcome?: string;
  stdout?: string;
  to_model?: string;
  call_id?: string;
};

const desktop = tempDir('mewbo-policy-desktop-');
const host = tempDir('mewbo-policy-host-');
/** The project's path: the same on both sides, with other files behind it on each. */
const project = join(desktop.dir, 'proj');

const hooksOf = (prompt: string, post: string) =>
  JSON.stringify({
    hooks: {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: prompt }] }],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: post }] }],
    },
  });
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`;

function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

let remote: RemoteRun;
beforeAll(async () => {
  writeTree(project, {
    'AGENTS.md': 'Read on the desktop: DESKTOP-INSTRUCTIONS.\n',
    'where.txt': 'desktop\n',
    '.mewbo/settings.json': hooksOf('echo desktop-prompt-hook', 'echo desktop-post-hook'),
    '.mewbo/skills/desktop-skill/SKILL.md': skill('desktop-skill', 'a skill of the desktop'),
    'sub/CLAUDE.md': 'Read on the desktop: DESKTOP-NESTED.\n',
  });
  writeTree(host.dir, {
    'AGENTS.md': 'Read on the host: HOST-INSTRUCTIONS.\n',
    'where.txt': 'host\n',
    '.mewbo/settings.json': hooksOf(
      'echo "prompt hook ran on the $(cat where.txt)"',
      'echo post-hook',
    ),
    '.mewbo/skills/host-skill/SKILL.md': skill('host-skill', 'a skill of the host'),
    'sub/notes.txt': 'notes\n',
  });
  remote = await startRemoteRun({ hostView: { [project]: host.dir } });
}, 180_000);
afterAll(async () => {
  await remote?.stop();
  desktop.cleanup();
  host.cleanup();
});

const shellTurn = (command: string) => ({
  toolCalls: [{ name: 'aider_shell_tool', args: { command } }],
});

describe('a project on an SSH host', () => {
  it('gives the model the host instructions, and an untrusted one runs no hook and lists no skill of it', async () => {
    const { fake } = remote;
    fake.script.push(
      shellTurn('cat where.txt'),
      { toolCalls: [{ name: 'read_file', args: { path: 'sub/notes.txt' } }] },
      { text: 'Done.' },
    );
    const r = await remote.runOn(project, 'which side?');
    expect(r.code).toBe(0);
    const lines = jsonLines<Line>(r.stdout);
    // The tools ran on the host (a sanity check of the two views).
    expect(JSON.stringify(lines)).toContain('host\\n');
    const system = fake.requests.at(-1)!.system;
    expect(system).toContain('HOST-INSTRUCTIONS');
    expect(system).not.toContain('DESKTOP-INSTRUCTIONS');
    // A folder read on the host loads no instructions file of the desktop's folder of that path.
    expect(fake.requests.at(-1)!.transcript).toContain('notes');
    expect(JSON.stringify(fake.requests.at(-1)!.body)).not.toContain('DESKTOP-NESTED');
    expect(system).not.toContain('host-skill');
    expect(system).not.toContain('desktop-skill');
    expect(lines.filter((l) => l.type === 'hook_run')).toEqual([]);
  }, 180_000);

  it('trusted, runs its hooks on the host and lists its skills; a settings file changed there after trust is not obeyed', async () => {
    const { fake } = remote;
    const settings = join(host.dir, '.mewbo/settings.json');
    fake.script.push(
      shellTurn('echo first > started.txt'),
      // Waits (bounded by the shell tool's timeout) for the test to change the settings on the host.
      shellTurn('until grep -q changed-post-hook .mewbo/settings.json; do sleep 0.1; done'),
      shellTurn('echo third'),
      { text: 'Done.' },
    );
    const first = fake.requests.length;
    const running = remote.runOn(project, 'go', ['--trust']);
    // After the run took its trust (its first shell ran), the file changes on the host, as by a
    // git pull there; the desktop's file at that path never changes.
    while (!existsSync(join(host.dir, 'started.txt'))) await new Promise((r) => setTimeout(r, 50));
    writeFileSync(settings, hooksOf('echo prompt', 'echo changed-post-hook'));
    const r = await running;
    expect(r.code).toBe(0);
    const lines = jsonLines<Line>(r.stdout);
    const runs = lines.filter((l) => l.type === 'hook_run');
    const prompt = runs.filter((l) => l.hook_event === 'UserPromptSubmit');
    expect(prompt).toHaveLength(1);
    expect(prompt[0]).toMatchObject({ outcome: 'ok', stdout: 'prompt hook ran on the host\n' });
    expect(fake.requests[first]!.transcript).toContain('prompt hook ran on the host');
    const system = fake.requests[first]!.system;
    expect(system).toContain('host-skill');
    expect(system).not.toContain('desktop-skill');
    // The first shell's PostToolUse ran (the file as trusted); the last shell, judged after the
    // change, ran none: neither the changed hook nor the one trusted before.
    const shells = lines.filter((l) => l.type === 'tool_result').map((l) => l.call_id);
    expect(shells).toHaveLength(3);
    const post = runs.filter((l) => l.hook_event === 'PostToolUse');
    expect(post[0]).toMatchObject({ command: 'echo post-hook', call_id: shells[0] });
    expect(post.map((l) => l.call_id)).not.toContain(shells[2]);
    expect(post.map((l) => l.command)).not.toContain('echo changed-post-hook');
  }, 180_000);
});
