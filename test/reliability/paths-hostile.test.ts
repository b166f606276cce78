import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolPayload } from '../../shared/tools/payload';
import { filenameFrom } from '../../electron/host/tools/edit-block-parser';
import { makeFixture, runApi, runCli, type Fixture } from '../unit/tools/harness';

// A battery of hostile paths, each tried on all four file tools: every one must be refused as a
// path validation error, and nothing outside the root may be read, created or changed.

let fx: Fixture;
let evil: string;
let before: string;

function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.push(`${p}:${st.size}:${readFileSync(p, 'utf8')}`);
    }
  };
  walk(dir);
  return out.join('\n');
}

function hostilePaths(root: string, outside: string): string[] {
  const name = basename(root);
  return [
    '..',
    '../',
    '../outside/secret.txt',
    '../../etc/passwd',
    'src/../../outside/secret.txt',
    './../outside/secret.txt',
    'src/../../outside/new.txt',
    `${'../'.repeat(60)}etc/passwd`,
    `../${name}/../outside/secret.txt`,
    '/etc/passwd',
    '/etc/shadow',
    '/',
    '//etc/passwd',
    '/tmp/../etc/passwd',
    '/proc/self/root/etc/passwd',
    '/proc/self/cwd/x.txt',
    '/dev/null',
    '/dev/zero',
    '/root/.ssh/id_rsa',
    outside,
    join(outside, 'secret.txt'),
    join(outside, 'new-file.txt'),
    `${root}/../outside/secret.txt`,
    `${root}-evil/x.txt`,
    `${root}-evil`,
    'link-out',
    'link-out/secret.txt',
    'link-out/created.txt',
    'link-file',
    'link-dangling',
    'link-dangling-dir/new.txt',
    'chain1',
    'src/link-up/outside/secret.txt',
    'link-root-parent/outside/secret.txt',
    'link-abs-etc/passwd',
    'link-rel-out/secret.txt',
    'src/mid-link/sub/file.txt',
    'src/nested/link-to-tmp/x.txt',
    'link-proc/etc/passwd',
    'loop-a/x.txt',
    'src/a.txt\0.png',
    '\0',
    'src/\0/../a.txt',
    '~/.ssh/id_rsa',
    '~',
    '~/../../etc/passwd',
  ];
}

function argsFor(tool: string, p: string): Record<string, unknown> {
  switch (tool) {
    case 'read_file':
    case 'aider_list_dir_tool':
      return { path: p };
    case 'file_edit_tool':
      return { file_path: p, old_string: '', new_string: 'pwned\n' };
    default:
      return { content: `${p}\n\`\`\`\n<<<<<<< SEARCH\n=======\npwned\n>>>>>>> REPLACE\n\`\`\`\n` };
  }
}

const TOOLS = ['read_file', 'aider_list_dir_tool', 'file_edit_tool', 'aider_edit_block_tool'];

function expectRefused(p: ToolPayload, what: string): void {
  expect(p.kind, what).toBe('error');
  expect(p.code, `${what}: ${String(p.message)}`).toBe('path_validation');
}

beforeAll(() => {
  fx = makeFixture();
  const { root, outside } = fx;
  evil = `${root}-evil`;
  mkdirSync(evil);
  writeFileSync(join(evil, 'x.txt'), 'evil sibling');
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  mkdirSync(join(root, 'src', 'nested'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.txt'), 'inside');
  symlinkSync(outside, join(root, 'link-out'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-file'));
  symlinkSync(join(outside, 'missing.txt'), join(root, 'link-dangling'));
  symlinkSync(join(outside, 'missing-dir'), join(root, 'link-dangling-dir'));
  symlinkSync(join(root, 'chain2'), join(root, 'chain1'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'chain2'));
  symlinkSync('../..', join(root, 'src', 'link-up'));
  symlinkSync('..', join(root, 'link-root-parent'));
  symlinkSync('/etc', join(root, 'link-abs-etc'));
  symlinkSync('../outside', join(root, 'link-rel-out'));
  symlinkSync(outside, join(root, 'src', 'mid-link'));
  symlinkSync('/tmp', join(root, 'src', 'nested', 'link-to-tmp'));
  symlinkSync('/proc/self/root', join(root, 'link-proc'));
  symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
  symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
  before = snapshot(outside) + snapshot(evil);
});

afterAll(() => fx.cleanup());

describe('hostile paths', () => {
  it('the battery has at least 40 paths', () => {
    expect(hostilePaths(fx.root, fx.outside).length).toBeGreaterThanOrEqual(40);
  });

  for (const tool of TOOLS) {
    it(`${tool} refuses every hostile path with a path validation error`, async () => {
      for (const p of hostilePaths(fx.root, fx.outside)) {
        if (tool === 'aider_edit_block_tool')
          expect(filenameFrom(p), JSON.stringify(p)).not.toBeNull();
        expectRefused(
          await runApi(fx.root, tool, argsFor(tool, p)),
          `${tool} ${JSON.stringify(p)}`,
        );
      }
    });
  }

  it('a model-given root may not widen the session root', async () => {
    for (const root of ['..', '/', fx.outside, 'link-out', 'link-root-parent', `${fx.root}-evil`]) {
      expectRefused(
        await runApi(fx.root, 'read_file', { path: 'secret.txt', root }),
        `root ${root}`,
      );
      expectRefused(await runApi(fx.root, 'aider_list_dir_tool', { root }), `list root ${root}`);
      expectRefused(
        await runApi(fx.root, 'file_edit_tool', {
          file_path: 'x.txt',
          old_string: '',
          new_string: 'p',
          root,
        }),
        `edit root ${root}`,
      );
    }
  });

  it('an allowlist entry outside the root is refused too', async () => {
    const content =
      'src/a.txt\n```\n<<<<<<< SEARCH\ninside\n=======\nchanged\n>>>>>>> REPLACE\n```\n';
    expectRefused(
      await runApi(fx.root, 'aider_edit_block_tool', { content, files: ['../outside/secret.txt'] }),
      'files',
    );
    expect(readFileSync(join(fx.root, 'src', 'a.txt'), 'utf8')).toBe('inside');
  });

  it('refuses through `mewbo tool` as well (exit 1, path_validation)', () => {
    const paths = hostilePaths(fx.root, fx.outside);
    for (let i = 0; i < paths.length; i += 5) {
      const tool = TOOLS[(i / 5) % TOOLS.length]!;
      const run = runCli(fx, tool, argsFor(tool, paths[i]!));
      expect(run.status, `${tool} ${JSON.stringify(paths[i])}: ${run.stderr}`).toBe(1);
      expectRefused(run.payload!, `cli ${tool} ${JSON.stringify(paths[i])}`);
    }
  });

  it('nothing outside the root was created or changed', () => {
    expect(snapshot(fx.outside) + snapshot(evil)).toBe(before);
  });
});
