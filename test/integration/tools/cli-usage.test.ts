import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, makeFixture, runCli, type Fixture } from '../../unit/tools/harness';

// `mewbo tool` bad usage exits 2 with a message naming what was wrong; a bad config exits 1
// naming the key.

let fx: Fixture;
afterEach(() => fx?.cleanup());

function tool(args: string[], home: string) {
  return spawnSync(process.execPath, [CLI, 'tool', ...args], {
    env: { ...process.env, MEWBO_HOME: home },
    encoding: 'utf8',
  });
}

describe('mewbo tool usage', () => {
  it('an unknown tool is bad usage (exit 2) and the usage lists the tools', () => {
    fx = makeFixture();
    const r = tool(['no_such_tool', '--root', fx.root], fx.home);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown tool 'no_such_tool'/);
    for (const name of [
      'read_file',
      'aider_edit_block_tool',
      'file_edit_tool',
      'aider_list_dir_tool',
    ])
      expect(r.stderr).toContain(name);
  });

  it('arguments that are not JSON are bad usage', () => {
    fx = makeFixture();
    const r = tool(['read_file', '--root', fx.root, '--args', '{path:'], fx.home);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--args: not valid JSON/);
  });

  it('arguments failing the schema are bad usage naming the field', () => {
    fx = makeFixture();
    const r = runCli(fx, 'read_file', { path: 'a.txt', limit: 0 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Invalid arguments for read_file: limit: /);
    const missing = runCli(fx, 'file_edit_tool', { file_path: 'a', new_string: 'b' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/old_string: /);
    const typo = runCli(fx, 'read_file', { file: 'a.txt' });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(
      /path: .*Unrecognized key: "file"|Unrecognized key: "file".*path: /s,
    );
  });

  it('a missing NAME, or a root that is not a directory, is bad usage', () => {
    fx = makeFixture();
    expect(tool(['--root', fx.root], fx.home).status).toBe(2);
    const r = tool(
      ['read_file', '--root', join(fx.root, 'nope'), '--args', '{"path":"a"}'],
      fx.home,
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not an existing directory/);
  });

  it('reads arguments from a file with --args @FILE', () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'hello\n');
    writeFileSync(join(fx.home, 'args.json'), JSON.stringify({ path: 'a.txt' }));
    const r = tool(
      ['read_file', '--root', fx.root, '--args', `@${join(fx.home, 'args.json')}`],
      fx.home,
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'file', content: '     1\thello' });
  });

  it('an invalid agent.edit_tool in configs/app.json fails naming the key', () => {
    fx = makeFixture();
    mkdirSync(join(fx.home, 'configs'));
    writeFileSync(
      join(fx.home, 'configs', 'app.json'),
      JSON.stringify({ agent: { edit_tool: 'sed' } }),
    );
    const r = runCli(fx, 'aider_list_dir_tool', {});
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/agent\.edit_tool/);
  });
});
