import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, makeFixture, REPO_ROOT, type Fixture } from '../../unit/tools/harness';

// `mewbo` (dist/mewbo, package.json's bin) runs `mewbo tool` from a V8 start-up snapshot built by
// `npm run build` (build/tool-snapshot.mjs), and `tool read_file` from a bundle of its own code
// alone (dist/cli-read-file-start.cjs): both must answer exactly as dist/cli.js does, and the
// launcher runs dist/cli.js instead whenever the snapshot cannot be used (no blob, another node).
// Which way the launcher went is read from `sh -x`'s trace of its exec line.

const BIN = join(REPO_ROOT, 'dist/mewbo');
const BLOB = join(REPO_ROOT, 'dist/cli-tool.blob');
/** What the launcher runs `mewbo tool read_file` with. */
const READ_FILE_START = join(REPO_ROOT, 'dist/cli-read-file-start.cjs');

let fx: Fixture;
let extra: string | undefined;
afterEach(() => {
  fx?.cleanup();
  if (extra) rmSync(extra, { recursive: true, force: true });
  extra = undefined;
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The launcher's exec line (`sh -x`), absent when dist/cli.js ran directly. */
  exec?: string;
  /** Every command the launcher ran (`sh -x`), its exec line last. */
  trace: string[];
}

function run(
  how: 'launcher' | 'cli',
  args: string[],
  opts: { input?: string; path?: string; bin?: string; nodeOptions?: string; cwd?: string } = {},
): Run {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: opts.nodeOptions,
    MEWBO_HOME: fx.home,
    PATH: opts.path ?? `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  };
  const [command, argv] =
    how === 'cli'
      ? [process.execPath, [CLI, ...args]]
      : ['/bin/sh', ['-x', opts.bin ?? BIN, ...args]];
  const r = spawnSync(command, argv, {
    input: opts.input ?? '',
    env,
    cwd: opts.cwd ?? fx.root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const trace = r.stderr.split('\n').filter((l) => l.startsWith('+ '));
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr
      .split('\n')
      .filter((l) => !l.startsWith('+ '))
      .join('\n'),
    exec: trace.find((l) => l.startsWith('+ exec ')),
    trace,
  };
}

const answer = ({ status, stdout, stderr }: Run) => ({ status, stdout, stderr });
const fromSnapshot = (r: Run) => r.exec?.includes('--snapshot-blob') === true;
const fromReadFileBundle = (r: Run) => r.exec?.includes(READ_FILE_START) === true;
/** The launcher's route for `mewbo tool` ARGS: read_file's bundle when read_file is next. */
const expectedRoute = (args: string[]) => (args[1] === 'read_file' ? 'bundle' : 'snapshot');
const routeOf = (r: Run) =>
  fromReadFileBundle(r) ? 'bundle' : fromSnapshot(r) ? 'snapshot' : 'cli';

/** A tool the snapshot runs (list_dir) through the launcher ran dist/cli.js, same answer. */
function expectToolFromCli(opts: Parameters<typeof run>[2] = {}): void {
  fx = makeFixture();
  writeFileSync(join(fx.root, 'a.txt'), 'one\n');
  const args = ['tool', 'aider_list_dir_tool'];
  const launched = run('launcher', args, opts);
  expect(launched.exec).toContain('dist/cli.js');
  expect(answer(launched)).toEqual(answer(run('cli', args)));
}

/** `mewbo tool read_file` through the launcher ran read_file's bundle, with dist/cli.js's answer. */
function expectReadFileFromBundle(opts: Parameters<typeof run>[2] = {}): void {
  fx = makeFixture();
  writeFileSync(join(fx.root, 'a.txt'), 'one\n');
  const args = ['tool', 'read_file', '--args', '{"path":"a.txt"}'];
  const launched = run('launcher', args, opts);
  expect(routeOf(launched)).toBe('bundle');
  expect(answer(launched)).toEqual(answer(run('cli', args)));
}

describe('mewbo tool from its start-up snapshot, read_file from its own bundle', () => {
  it('answers as dist/cli.js does: payloads, errors, usage, help, stdin', () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(fx.root, 'u.txt'), 'h\u00e9llo \u20ac\n');
    // read_file's other ways through its code (its bundle holds nothing a module loads by
    // import(): a way that needed one would fail there and answer differently).
    copyFileSync(join(REPO_ROOT, 'test/fixtures/images/canvas-37x23.png'), join(fx.root, 'i.png'));
    writeFileSync(join(fx.root, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255, 0]));
    writeFileSync(join(fx.root, 'long.txt'), 'x\n'.repeat(5000));
    mkdirSync(join(fx.root, 'sub'));
    symlinkSync('/etc/hostname', join(fx.root, 'out-link'));
    const cases: { args: string[]; input?: string }[] = [
      { args: ['tool', 'read_file', '--args', '{"path":"a.txt"}'] },
      { args: ['tool', '--args', '{"path":"a.txt","offset":1}', 'read_file'] },
      { args: ['tool', 'read_file', '--args', '{"path":"i.png"}'] },
      { args: ['tool', 'read_file', '--args', '{"path":"bin.dat"}'] },
      { args: ['tool', 'read_file', '--args', '{"path":"long.txt","offset":4000,"limit":3}'] },
      { args: ['tool', 'read_file', '--args', '{"path":"long.txt","offset":-3}'] },
      { args: ['tool', 'read_file', '--args', '{"path":"sub"}'] },
      { args: ['tool', 'read_file', '--args', '{"path":"out-link"}'] },
      { args: ['tool', 'read_file', '--args', '{"offset":1}'] },
      { args: ['tool', 'read_file', 'extra', '--args', '{"path":"a.txt"}'] },
      { args: ['tool', 'read_file', '--help'] },
      { args: ['tool', 'read_file', '--args', '{"path":"u.txt","offset":0,"limit":1}'] },
      { args: ['tool', 'read_file', '--args', '-'], input: '{"path":"a.txt","offset":-2}' },
      { args: ['tool', 'read_file', '--args', '{"path":"missing.txt"}'] },
      { args: ['tool', 'read_file', '--args', '{"path":"../outside"}'] },
      { args: ['tool', 'aider_list_dir_tool'] },
      { args: ['tool', 'no_such_tool'] },
      { args: ['tool', 'read_file', '--args', 'not json'] },
      { args: ['tool', '--help'] },
      { args: ['tool'] },
    ];
    for (const c of cases) {
      const launched = run('launcher', c.args, c);
      expect(routeOf(launched), c.args.join(' ')).toBe(expectedRoute(c.args));
      expect(answer(launched), c.args.join(' ')).toEqual(answer(run('cli', c.args, c)));
    }
  });

  it('read_file starts from its own bundle with any node and any NODE_OPTIONS; every other tool from the snapshot', () => {
    expectReadFileFromBundle();
    expectReadFileFromBundle({ nodeOptions: '--max-old-space-size=512' });
    extra = mkdtempSync(join(tmpdir(), 'mewbo-node-'));
    writeFileSync(join(extra, 'node'), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`);
    chmodSync(join(extra, 'node'), 0o755);
    expectReadFileFromBundle({ path: `${extra}:${process.env.PATH ?? ''}` });
    // Any other next word, an option before read_file's name too, takes the snapshot.
    for (const args of [
      ['tool', 'aider_list_dir_tool'],
      ['tool', '--root', '.', 'read_file'],
    ])
      expect(routeOf(run('launcher', args)), args.join(' ')).toBe('snapshot');
    // read_file's bundle ran with a V8 code cache, which shows in the user's cache folder.
    expect(
      readdirSync(join(fx.home, 'cache')).filter((f) => f.startsWith('cli-read-file.cjs-')),
    ).toHaveLength(1);
  });

  it("read_file's bundle holds no classic zod, and a start whose config this build accepted before checks nothing", () => {
    // Classic zod (loaded and its config schema built) was a third of the start: its schema
    // classes must not be in the bundle; zod/mini's are.
    const bundle = readFileSync(join(REPO_ROOT, 'dist/cli-read-file.cjs'), 'latin1');
    expect(bundle).toContain('"ZodMiniObject"');
    expect(bundle).not.toContain('"ZodObject"');
    // read_file's start and bundle alone, without the config reader's bundle beside them.
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    extra = mkdtempSync(join(tmpdir(), 'mewbo-read-file-'));
    for (const name of ['cli-read-file-start.cjs', 'cli-read-file.cjs'])
      copyFileSync(join(REPO_ROOT, 'dist', name), join(extra, name));
    mkdirSync(join(fx.home, 'configs'));
    const config = join(fx.home, 'configs/app.json');
    writeFileSync(config, JSON.stringify({ permission_mode: 'plan' }));
    const args = ['tool', 'read_file', '--args', '{"path":"a.txt"}'];
    // The launcher's first start checks the config and records it.
    expect(run('launcher', args).status).toBe(0);
    const alone = () =>
      spawnSync(process.execPath, [join(extra!, 'cli-read-file-start.cjs'), ...args], {
        env: { ...process.env, MEWBO_HOME: fx.home },
        cwd: fx.root,
        encoding: 'utf8',
      });
    const hit = alone();
    expect({ status: hit.status, stdout: hit.stdout, stderr: hit.stderr }).toEqual(
      answer(run('cli', args)),
    );
    // The control: a config it has not accepted needs the reader, which is not there.
    writeFileSync(config, JSON.stringify({ permission_mode: 'auto' }));
    const miss = alone();
    expect(miss.status).toBe(1);
    expect(miss.stderr).toContain('cli-config-check.cjs');
  });

  it('a config changed since the last start is checked again: its error is reported, and its warnings each time', () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    mkdirSync(join(fx.home, 'configs'));
    const config = join(fx.home, 'configs/app.json');
    const args = ['tool', 'read_file', '--args', '{"path":"a.txt"}'];
    writeFileSync(config, '{"colour":"red","permission_mode":"plan"}');
    const first = run('launcher', args);
    expect(first.stderr).toContain('unknown key "colour"');
    expect(answer(run('launcher', args))).toEqual(answer(first));
    // The same length, and the same modification time: only the text tells them apart.
    const { mtime } = statSync(config);
    writeFileSync(config, '{"colour":"red","permission_mode":"nope"}');
    utimesSync(config, mtime, mtime);
    const changed = run('launcher', args);
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain('permission_mode');
    expect(answer(changed)).toEqual(answer(run('cli', args)));
  });

  it("reads $MEWBO_HOME's config when it runs, not the build's", () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    mkdirSync(join(fx.home, 'configs'));
    writeFileSync(
      join(fx.home, 'configs/app.json'),
      JSON.stringify({ checkpoints: { enabled: 'not a boolean' } }),
    );
    for (const args of [
      ['tool', 'read_file', '--args', '{"path":"a.txt"}'],
      ['tool', 'aider_list_dir_tool'],
    ]) {
      const launched = run('launcher', args);
      expect(routeOf(launched)).toBe(expectedRoute(args));
      expect(launched.stderr).toContain('checkpoints');
      expect(answer(launched)).toEqual(answer(run('cli', args)));
    }
  });

  it('writes and runs shells as dist/cli.js does', () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'b.txt'), 'alpha\n');
    const edit = run('launcher', [
      'tool',
      'aider_edit_block_tool',
      '--args',
      JSON.stringify({
        content: 'b.txt\n```\n<<<<<<< SEARCH\nalpha\n=======\nbeta\n>>>>>>> REPLACE\n```\n',
      }),
    ]);
    expect(fromSnapshot(edit)).toBe(true);
    expect(edit.status, edit.stderr).toBe(0);
    expect(readFileSync(join(fx.root, 'b.txt'), 'utf8')).toBe('beta\n');

    const shell = run('launcher', [
      'tool',
      'aider_shell_tool',
      '--args',
      '{"command":"cat b.txt; exit 3"}',
    ]);
    expect(fromSnapshot(shell)).toBe(true);
    const payload = JSON.parse(shell.stdout) as { stdout: string; exit_code: number };
    expect([payload.stdout, payload.exit_code]).toEqual(['beta\n', 3]);
  });

  it('npm links the bin: through a symlink the launcher still finds its snapshot and bundle', () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    extra = mkdtempSync(join(tmpdir(), 'mewbo-bin-'));
    symlinkSync(BIN, join(extra, 'mewbo'));
    for (const args of [
      ['tool', 'read_file', '--args', '{"path":"a.txt"}'],
      ['tool', 'aider_list_dir_tool'],
    ]) {
      const linked = run('launcher', args, { bin: join(extra, 'mewbo') });
      expect(routeOf(linked)).toBe(expectedRoute(args));
      expect(answer(linked)).toEqual(answer(run('cli', args)));
    }
  });

  it('another node on PATH (whose heap the blob cannot be) runs dist/cli.js, same answer', () => {
    extra = mkdtempSync(join(tmpdir(), 'mewbo-node-'));
    // A different file that is a node: a wrapper, as version managers' shims are.
    writeFileSync(join(extra, 'node'), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`);
    chmodSync(join(extra, 'node'), 0o755);
    expectToolFromCli({ path: `${extra}:${process.env.PATH ?? ''}` });
  });

  it('starts no process before node: every command of the launcher is a shell built-in', () => {
    // A fork (readlink, a $(...) subshell) cost more CPU than the shell itself.
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    extra = mkdtempSync(join(tmpdir(), 'mewbo-bin-'));
    symlinkSync(BIN, join(extra, 'mewbo'));
    for (const bin of [BIN, join(extra, 'mewbo')])
      for (const [args, words] of [
        [
          ['tool', 'read_file', '--args', '{"path":"a.txt"}'],
          ['set', '[', 'exec'],
        ],
        [
          ['tool', 'aider_list_dir_tool'],
          ['set', '[', 'blob=', 'IFS=', 'exec'],
        ],
        [['--help'], ['set', '[', 'blob=', 'exec']],
      ] as const) {
        const r = run('launcher', [...args], { bin });
        const ran = r.trace.map((l) => l.slice(2).split(' ')[0]!.replace(/=.*/, '='));
        expect(new Set(ran), `${bin} ${args.join(' ')}`).toEqual(new Set(words));
        expect(r.status).toBe(0);
      }
  });

  it("an empty PATH entry is the current folder: a node there (not the build's) runs dist/cli.js", () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    writeFileSync(join(fx.root, 'node'), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`);
    chmodSync(join(fx.root, 'node'), 0o755);
    const args = ['tool', 'aider_list_dir_tool'];
    const launched = run('launcher', args, {
      path: `:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    });
    expect(launched.exec).toContain('dist/cli.js');
    expect(answer(launched)).toEqual(answer(run('cli', args)));
  });

  it("a copy of the launcher outside the dist/ it was built for runs that copy's dist/cli.js", () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    extra = mkdtempSync(join(tmpdir(), 'mewbo-dist-'));
    // A dist/ copied elsewhere: its blob would hold the build's paths, so the copy never uses it.
    writeFileSync(join(extra, 'mewbo'), readFileSync(BIN));
    chmodSync(join(extra, 'mewbo'), 0o755);
    for (const file of [BLOB, READ_FILE_START])
      writeFileSync(join(extra, file.split('/').pop()!), readFileSync(file));
    writeFileSync(join(extra, 'cli.js'), `import(${JSON.stringify(CLI)});\n`);
    for (const args of [
      ['tool', 'read_file', '--args', '{"path":"a.txt"}'],
      ['tool', 'aider_list_dir_tool'],
    ]) {
      const copied = run('launcher', args, { bin: join(extra, 'mewbo') });
      expect(copied.exec).toContain(`${extra}/cli.js`);
      expect(answer(copied)).toEqual(answer(run('cli', args)));
    }
  });

  it('with NODE_OPTIONS (V8 flags there make node refuse the blob) runs dist/cli.js, same answer', () => {
    expectToolFromCli({ nodeOptions: '--max-old-space-size=512' });
  });

  it('with no blob (a build that could not make one) runs dist/cli.js, same answer', () => {
    const aside = `${BLOB}.aside-${process.pid}`;
    renameSync(BLOB, aside);
    try {
      expectToolFromCli();
    } finally {
      renameSync(aside, BLOB);
    }
  });

  it('every other command runs from dist/cli.js', () => {
    fx = makeFixture();
    const help = run('launcher', ['--help']);
    expect(help.exec).toContain('dist/cli.js');
    expect(answer(help)).toEqual(answer(run('cli', ['--help'])));
  });
});
