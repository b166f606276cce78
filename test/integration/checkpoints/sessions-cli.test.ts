import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { jsonLines, runMewbo, type CliResult } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// Checkpoints, rewind, resume, continue, fork, export and import through the `mewbo` CLI as a user
// runs it: the built CLI, a temp $MEWBO_HOME, a real project folder, real shells, a scripted model.

type Line = { type: string; seq?: number; [field: string]: unknown };

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;

beforeEach(async () => {
  home = tempDir('mewbo-ckpt-home-');
  project = tempDir('mewbo-ckpt-proj-');
  fake = await FakeAnthropic.start();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
  project.cleanup();
});

function mewbo(args: string[]): Promise<CliResult> {
  return runMewbo(args, {
    cwd: existsSync(project.dir) ? project.dir : home.dir,
    env: { MEWBO_HOME: home.dir, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
  });
}

async function run(args: string[]): Promise<{ id: string; events: Line[]; code: number | null }> {
  const r = await mewbo(['run', '--permission-mode', 'auto', ...args]);
  const id = /session (s_[a-z0-9]+)/.exec(r.stderr)?.[1];
  if (!id) throw new Error(`no session id in: ${r.stderr}`);
  return { id, events: jsonLines<Line>(r.stdout), code: r.code };
}

/** Every file and symlink under `dir` with its bytes (or link text) and folders, as one map. */
function treeOf(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const p = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, p));
    if (st.isSymbolicLink()) out[p] = `-> ${readlinkSync(join(dir, p))}`;
    else if (st.isDirectory()) {
      out[`${p}/`] = 'dir';
      Object.assign(out, treeOf(dir, p));
    } else out[p] = `${(st.mode & 0o777).toString(8)} ${readFileSync(join(dir, p), 'base64')}`;
  }
  return out;
}

const EDIT = {
  name: 'aider_edit_block_tool',
  args: { content: 'a.txt\n```\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n' },
};
const SHELL = {
  name: 'aider_shell_tool',
  args: {
    command: 'mkdir -p gen/deep && printf "made\\n" > gen/deep/x.txt && rm b.txt && chmod +x c.sh',
  },
};

function seedProject(): void {
  writeFileSync(join(project.dir, 'a.txt'), 'one\n');
  writeFileSync(join(project.dir, 'b.txt'), Buffer.from([0, 1, 2, 255, 10, 13, 10]));
  writeFileSync(join(project.dir, 'c.sh'), 'echo hi\r\n');
  writeFileSync(join(project.dir, '.gitattributes'), '* text eol=crlf\n');
  writeFileSync(join(project.dir, '.gitignore'), 'ignored.log\n');
  writeFileSync(join(project.dir, 'ignored.log'), 'not snapshotted\n');
}

/** One turn that edits a.txt and runs a shell that creates gen/deep/x.txt and deletes b.txt. */
async function writingTurn(): Promise<string> {
  fake.script.push({ toolCalls: [EDIT] }, { toolCalls: [SHELL] }, { text: 'Done.' });
  const r = await run(['--project', project.dir, 'change one to two and generate']);
  expect(r.code).toBe(0);
  expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('two\n');
  expect(r.events.filter((e) => e.type === 'checkpoint').map((e) => e.phase)).toEqual([
    'before',
    'after',
  ]);
  return r.id;
}

async function exportedEvents(id: string): Promise<Line[]> {
  const r = await mewbo(['sessions', 'export', id, '--format', 'jsonl']);
  expect(r.code).toBe(0);
  return jsonLines<Line>(r.stdout);
}

describe('checkpoints and rewind', () => {
  it('a rewind of files and conversation puts the tree back byte for byte, and the model no longer sees the turn', async () => {
    seedProject();
    const before = treeOf(project.dir);
    const id = await writingTurn();
    expect(treeOf(project.dir)).not.toEqual(before);

    const r = await mewbo(['sessions', 'rewind', id, '--to-turn', '1', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/restore\s+a\.txt/);
    expect(r.stdout).toMatch(/create\s+b\.txt/);
    expect(r.stdout).toMatch(/delete\s+gen\/deep\/x\.txt/);
    expect(treeOf(project.dir)).toEqual(before);

    fake.script.push({ text: 'fresh start' });
    const resumed = await run(['--resume', id, 'what did you do?']);
    expect(resumed.code).toBe(0);
    const seen = fake.requests.at(-1)!.transcript;
    expect(seen).toContain('what did you do?');
    expect(seen).not.toContain('change one to two and generate');
  });

  it('files only: the tree goes back and the conversation stays', async () => {
    seedProject();
    const before = treeOf(project.dir);
    const id = await writingTurn();
    const r = await mewbo(['sessions', 'rewind', id, '--to-turn', '1', '--files-only', '--yes']);
    expect(r.code).toBe(0);
    expect(treeOf(project.dir)).toEqual(before);
    fake.script.push({ text: 'ok' });
    await run(['--resume', id, 'next']);
    expect(fake.requests.at(-1)!.transcript).toContain('change one to two and generate');
  });

  it('conversation only: the files stay as the agent left them', async () => {
    seedProject();
    const id = await writingTurn();
    const after = treeOf(project.dir);
    const r = await mewbo([
      'sessions',
      'rewind',
      id,
      '--to-turn',
      '1',
      '--conversation-only',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(treeOf(project.dir)).toEqual(after);
    fake.script.push({ text: 'ok' });
    await run(['--resume', id, 'next']);
    expect(fake.requests.at(-1)!.transcript).not.toContain('change one to two and generate');
  });

  it('a file the user changed after the agent is kept, and a file over the size limit is listed, not stored', async () => {
    seedProject();
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(
      join(home.dir, 'configs', 'app.json'),
      JSON.stringify({ checkpoints: { max_file_bytes: 64 } }),
    );
    writeFileSync(join(project.dir, 'big.bin'), Buffer.alloc(100, 7));
    const id = await writingTurn();
    writeFileSync(join(project.dir, 'a.txt'), 'mine\n');
    writeFileSync(join(project.dir, 'big.bin'), Buffer.alloc(200, 9));
    const r = await mewbo(['sessions', 'rewind', id, '--to-turn', '1', '--files-only', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/a\.txt\s+\(changed by you: kept\)/);
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(join(project.dir, 'big.bin'))).toEqual(Buffer.alloc(200, 9));
    expect(readFileSync(join(project.dir, 'b.txt'))).toEqual(
      Buffer.from([0, 1, 2, 255, 10, 13, 10]),
    );
    const events = await exportedEvents(id);
    const ckpt = events.find((e) => e.type === 'checkpoint')!;
    expect(ckpt.large_files).toEqual([{ path: 'big.bin', size: 100 }]);
  });

  it('a checkpoint store missing objects refuses the rewind and changes nothing', async () => {
    seedProject();
    const id = await writingTurn();
    const after = treeOf(project.dir);
    const stores = join(home.dir, 'checkpoints');
    const [store] = readdirSync(stores);
    const objects = join(stores, store!, 'git', 'objects');
    for (const d of readdirSync(objects))
      if (/^[0-9a-f]{2}$/.test(d)) rmSync(join(objects, d), { recursive: true });
    const r = await mewbo(['sessions', 'rewind', id, '--to-turn', '1', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/missing|incomplete|git/);
    expect(treeOf(project.dir)).toEqual(after);
  });

  it('a turn that changes nothing adds nothing to the store', async () => {
    seedProject();
    const id = await writingTurn();
    const objects = () =>
      readdirSync(join(home.dir, 'checkpoints'))
        .map((s) => readdirSync(join(home.dir, 'checkpoints', s, 'git', 'objects')).length)
        .reduce((a, b) => a + b, 0);
    const count = objects();
    fake.script.push(
      { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'true' } }] },
      {
        text: 'nothing',
      },
    );
    const r = await run(['--resume', id, 'run true']);
    expect(r.events.filter((e) => e.type === 'checkpoint')).toHaveLength(2);
    expect(objects()).toBe(count);
  });

  it('bad input: unknown session, a turn out of range, a project that is gone', async () => {
    seedProject();
    const unknown = await mewbo([
      'sessions',
      'rewind',
      's_nosuchsession',
      '--to-turn',
      '1',
      '--yes',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no session 's_nosuchsession'/);
    const id = await writingTurn();
    const range = await mewbo(['sessions', 'rewind', id, '--to-turn', '5', '--yes']);
    expect(range.code).toBe(1);
    expect(range.stderr).toMatch(/has 1 turn/);
    const noYes = await mewbo(['sessions', 'rewind', id, '--to-turn', '1']);
    expect(noYes.code).toBe(1);
    expect(noYes.stderr).toMatch(/--yes/);
    project.cleanup();
    const gone = await mewbo(['sessions', 'rewind', id, '--to-turn', '1', '--yes']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no longer exists/);
    mkdirSync(project.dir);
  });
});

describe('resume, continue, fork, list, export and import', () => {
  it('--resume and --continue send the earlier history to the model', async () => {
    writeFileSync(join(project.dir, 'a.txt'), 'one\n');
    fake.script.push({ text: 'first answer' });
    const first = await run(['--project', project.dir, 'remember the word kumquat']);
    fake.script.push({ text: 'second answer' });
    const resumed = await run(['--resume', first.id, 'which word?']);
    expect(resumed.id).toBe(first.id);
    expect(fake.requests.at(-1)!.transcript).toContain('remember the word kumquat');
    expect(fake.requests.at(-1)!.transcript).toContain('first answer');
    // Only what this run added is printed.
    expect(resumed.events.map((e) => e.type)).not.toContain('session_created');
    expect(resumed.events.filter((e) => e.type === 'user_message')).toMatchObject([
      { text: 'which word?' },
    ]);

    fake.script.push({ text: 'third answer' });
    const continued = await run(['--continue', 'and again?']);
    expect(continued.id).toBe(first.id);
    expect(fake.requests.at(-1)!.transcript).toContain('which word?');

    const empty = tempDir('mewbo-ckpt-empty-');
    const none = await mewbo(['run', '--continue', '--project', empty.dir, 'x']);
    empty.cleanup();
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no session to continue/);
    const unknown = await mewbo(['run', '--resume', 's_unknown000', 'x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no session 's_unknown000'/);
  });

  it('a fork holds the history up to its turn and shares nothing with the original', async () => {
    fake.script.push({ text: 'a1' });
    const s = await run(['--project', project.dir, 'turn one']);
    fake.script.push({ text: 'a2' });
    await run(['--resume', s.id, 'turn two']);
    const forked = await mewbo(['sessions', 'fork', s.id, '--at-turn', '1']);
    expect(forked.code).toBe(0);
    const forkId = forked.stdout.trim();
    expect(forkId).toMatch(/^s_/);
    expect(forkId).not.toBe(s.id);
    const original = await exportedEvents(s.id);
    const copy = await exportedEvents(forkId);
    const texts = (ev: Line[]) =>
      ev.filter((e) => e.type === 'user_message').map((e) => e.text as string);
    expect(texts(copy)).toEqual(['turn one']);
    expect(copy.find((e) => e.type === 'session_forked')).toMatchObject({ from_session: s.id });

    fake.script.push({ text: 'fork answer' });
    await run(['--resume', forkId, 'only in the fork']);
    expect(fake.requests.at(-1)!.transcript).toContain('turn one');
    expect(fake.requests.at(-1)!.transcript).not.toContain('turn two');
    expect(await exportedEvents(s.id)).toEqual(original);
    expect(texts(await exportedEvents(forkId))).toEqual(['turn one', 'only in the fork']);

    const bad = await mewbo(['sessions', 'fork', s.id, '--at-turn', '9']);
    expect(bad.code).toBe(1);
  });

  it('list shows id, title, project, updated and events; --project filters; --json parses', async () => {
    const other = tempDir('mewbo-ckpt-other-');
    try {
      fake.script.push({ text: 'x' }, { text: 'y' });
      const a = await run(['--project', project.dir, 'in project']);
      await run(['--project', other.dir, 'elsewhere']);
      const r = await mewbo(['sessions', 'list', '--project', project.dir, '--json']);
      expect(r.code).toBe(0);
      const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: a.id, title: 'in project' });
      expect(rows[0]!.events).toBeGreaterThan(3);
      expect(typeof rows[0]!.updated).toBe('string');
      const plain = await mewbo(['sessions', 'list']);
      expect(plain.stdout.trim().split('\n')).toHaveLength(2);
    } finally {
      other.cleanup();
    }
  });

  it('export to jsonl and import back gives the same log; markdown is a readable transcript', async () => {
    seedProject();
    const id = await writingTurn();
    const file = join(home.dir, 'out.jsonl');
    expect((await mewbo(['sessions', 'export', id, '--format', 'jsonl', '-o', file])).code).toBe(0);
    const imported = await mewbo(['sessions', 'import', file]);
    expect(imported.code).toBe(0);
    const newId = imported.stdout.trim();
    expect(newId).not.toBe(id);
    const original = await exportedEvents(id);
    const copy = await exportedEvents(newId);
    // The whole history, then the import's own word: the new session starts in ask mode.
    expect(copy.slice(0, original.length)).toEqual(original);
    expect(copy.slice(original.length)).toMatchObject([{ type: 'mode_change', mode: 'ask' }]);

    const md = await mewbo(['sessions', 'export', id, '--format', 'markdown']);
    expect(md.stdout).toContain('## User');
    expect(md.stdout).toContain('change one to two and generate');
    expect(md.stdout).toContain('<details><summary>Tool: aider_edit_block_tool</summary>');
    expect(md.stdout).toMatch(/```diff\n[^]*-one\n\+two/);
  });

  it('import refuses a broken file, naming the line, and creates no session', async () => {
    fake.script.push({ text: 'x' });
    const s = await run(['--project', project.dir, 'hello']);
    const lines = (await mewbo(['sessions', 'export', s.id, '--format', 'jsonl'])).stdout.split(
      '\n',
    );
    lines[2] = '{"seq": 2, "type": "no_such_event"}';
    const file = join(home.dir, 'bad.jsonl');
    writeFileSync(file, lines.join('\n'));
    const r = await mewbo(['sessions', 'import', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.jsonl: line 3 is not a session event/);
    const list = JSON.parse((await mewbo(['sessions', 'list', '--json'])).stdout) as unknown[];
    expect(list).toHaveLength(1);
  });
});
