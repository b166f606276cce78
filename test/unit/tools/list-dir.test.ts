import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFixture, runApi, type Fixture } from './harness';

// aider_list_dir_tool reads directories in parallel: the listing keeps one fixed order, and a
// listing cut at its caps still counts every file.

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

/** The expected order: a directory's files by name, then each subdirectory by name. */
function sequential(tree: Record<string, unknown>, prefix = ''): string[] {
  const names = Object.keys(tree).sort();
  const files = names.filter((n) => tree[n] === null).map((n) => prefix + n);
  const dirs = names
    .filter((n) => tree[n] !== null)
    .flatMap((n) => sequential(tree[n] as Record<string, unknown>, `${prefix}${n}/`));
  return [...files, ...dirs];
}

function build(root: string, tree: Record<string, unknown>): void {
  for (const [name, sub] of Object.entries(tree)) {
    if (sub === null) writeFileSync(join(root, name), '');
    else {
      mkdirSync(join(root, name));
      build(join(root, name), sub as Record<string, unknown>);
    }
  }
}

describe('aider_list_dir_tool', () => {
  it('lists in one fixed order however the parallel reads finish', async () => {
    fx = makeFixture();
    const tree: Record<string, unknown> = {};
    for (let d = 0; d < 12; d++) {
      const sub: Record<string, unknown> = { [`z${d}.txt`]: null };
      for (let e = 0; e < 5; e++) sub[`inner${e}`] = { [`f${d}-${e}.ts`]: null, 'a.md': null };
      tree[`dir${d}`] = sub;
    }
    tree['top.txt'] = null;
    build(fx.root, tree);
    const p = await runApi(fx.root, 'aider_list_dir_tool', {});
    expect(String(p.text).split('\n')).toEqual(sequential(tree));
    expect(p).toMatchObject({ total: sequential(tree).length, truncated: false });
  });

  it('a listing cut at max_entries or at the character cap reports the exact total', async () => {
    fx = makeFixture();
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(fx.root, `d${d}`));
      for (let f = 0; f < 100; f++)
        writeFileSync(join(fx.root, `d${d}`, `${'long-name-'.repeat(3)}${f}.txt`), '');
    }
    writeFileSync(join(fx.root, '.gitignore'), 'd29/\n');
    const cut = await runApi(fx.root, 'aider_list_dir_tool', { max_entries: 10 });
    expect(cut).toMatchObject({ entries: 10, total: 2901, truncated: true });
    expect(String(cut.note)).toMatch(/showing 10 of 2901 files, cut at max_entries 10/);
    const chars = await runApi(fx.root, 'aider_list_dir_tool', { max_entries: 100_000 });
    expect(chars).toMatchObject({ total: 2901, truncated: true });
    expect(String(chars.note)).toMatch(/of 2901 files, cut at the 30000-character limit/);
  });
});
