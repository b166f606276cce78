import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileEditTool } from '../../../electron/host/tools/file-edit';
import { isAlive, lspProject, waitGone } from './lsp-fixtures';

// One real typescript-language-server (from this repo's dev dependencies) for the whole file, on
// a temp project of two files; tests run in order and some edit the files for the next ones.

const GREET = `export function greet(name: string): string {
  return \`hello \${name}\`;
}
`;
const MAIN_BROKEN = `import { greet } from './greet';

export const message: string = greet('world');
export const count: number = greet('x');
`;
const MAIN_FIXED = MAIN_BROKEN.replace(`count: number`, `count: string`);

describe('lsp_tool on typescript-language-server', () => {
  const { root, lsp, ctx, call } = lspProject('mewbo-lsp-ts-', {
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'ESNext',
        moduleResolution: 'Bundler',
      },
    }),
    'src/greet.ts': GREET,
    'src/main.ts': MAIN_BROKEN,
  });

  it('diagnostics report a type error with its position, code and source line', async () => {
    const result = await call({ operation: 'diagnostics', file_path: 'src/main.ts' });
    expect(result).toMatchObject({
      kind: 'lsp_diagnostics',
      file: 'src/main.ts',
      total: 1,
      truncated: false,
    });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        line: 3,
        character: 13,
        severity: 'error',
        code: 'TS2322',
        message: "Type 'string' is not assignable to type 'number'.",
        excerpt: "export const count: number = greet('x');",
      }),
    ]);
  });

  it('definition jumps from a use in one file to the declaration in another', async () => {
    const result = await call({
      operation: 'definition',
      file_path: 'src/main.ts',
      line: 2,
      character: 31,
    });
    expect(result).toMatchObject({ kind: 'lsp_locations', operation: 'definition' });
    expect(result.locations).toEqual([
      expect.objectContaining({
        file: 'src/greet.ts',
        line: 0,
        character: 16,
        excerpt: 'export function greet(name: string): string {',
      }),
    ]);
  });

  it('references list the declaration and every use across both files', async () => {
    const result = await call({
      operation: 'references',
      file_path: 'src/greet.ts',
      line: 0,
      character: 16,
    });
    const places = (result.locations as { file: string; line: number }[])
      .map((l) => `${l.file}:${l.line}`)
      .sort();
    expect(places).toEqual(['src/greet.ts:0', 'src/main.ts:0', 'src/main.ts:2', 'src/main.ts:3']);
  });

  it('hover gives the signature of the symbol under the cursor', async () => {
    const result = await call({
      operation: 'hover',
      file_path: 'src/main.ts',
      line: 3,
      character: 30,
    });
    expect(result).toMatchObject({ kind: 'lsp_hover', line: 3, character: 30 });
    expect(result.text).toContain('greet(name: string): string');
  });

  it('a position past the end of the file is refused with the file length', async () => {
    const result = await call({
      operation: 'hover',
      file_path: 'src/main.ts',
      line: 40,
      character: 0,
    });
    expect(result).toMatchObject({ kind: 'error', code: 'invalid_args' });
    expect(result.message).toContain('5 lines');
  });

  it('diagnostics follow an edit on disk, including one in the other file', async () => {
    writeFileSync(join(root, 'src/main.ts'), MAIN_FIXED);
    expect(await call({ operation: 'diagnostics', file_path: 'src/main.ts' })).toMatchObject({
      total: 0,
    });
    // greet.ts is open on the server (hovered above); changing its return type breaks main.ts.
    writeFileSync(
      join(root, 'src/greet.ts'),
      GREET.replace('): string {', '): number {').replace('`hello ${name}`', 'name.length'),
    );
    const result = await call({ operation: 'diagnostics', file_path: 'src/main.ts' });
    expect((result.diagnostics as { line: number }[]).map((d) => d.line)).toEqual([2, 3]);
    writeFileSync(join(root, 'src/greet.ts'), GREET);
  });

  it('passive diagnostics after an edit name the new error, then say once that it is fixed', async () => {
    writeFileSync(join(root, 'src/main.ts'), MAIN_BROKEN);
    const broken = await lsp.diagnosticsAfterEdit(root, ['src/main.ts']);
    // The card counts what the note stands for.
    expect(broken).toMatchObject({ errors: 1, warnings: 0 });
    expect(broken?.text).toContain('src/main.ts: 1 problem');
    expect(broken?.text).toContain(
      "4:14 error TS2322: Type 'string' is not assignable to type 'number'.",
    );

    writeFileSync(join(root, 'src/main.ts'), MAIN_FIXED);
    expect((await lsp.diagnosticsAfterEdit(root, [join(root, 'src/main.ts')]))?.text).toContain(
      'src/main.ts: no errors or warnings now',
    );
    expect(await lsp.diagnosticsAfterEdit(root, ['src/main.ts'])).toBeNull();
  });

  it('an edit made through file_edit_tool shows up in passive diagnostics and in lsp_tool at once', async () => {
    const edit = (old_string: string, new_string: string) =>
      fileEditTool.run(
        ctx,
        fileEditTool.parameters.parse({ file_path: 'src/main.ts', old_string, new_string }),
      );
    const broke = await edit("greet('world')", '42');
    expect(broke).toMatchObject({ kind: 'diff', files: ['src/main.ts'] });
    const note = await lsp.diagnosticsAfterEdit(root, broke.files as string[]);
    expect(note?.text).toContain(
      "3:14 error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(await call({ operation: 'diagnostics', file_path: 'src/main.ts' })).toMatchObject({
      total: 1,
    });

    const fixed = await edit('42', "greet('world')");
    expect((await lsp.diagnosticsAfterEdit(root, fixed.files as string[]))?.text).toContain(
      'src/main.ts: no errors or warnings now',
    );
  });

  it('diagnostics are capped at 50 and the passive note at 20 per file, each saying how many more', async () => {
    const many = Array.from({ length: 60 }, (_, i) => `export const e${i}: number = 'x';`).join(
      '\n',
    );
    writeFileSync(join(root, 'src/many.ts'), `${many}\n`);
    const result = await call({ operation: 'diagnostics', file_path: 'src/many.ts' });
    expect(result).toMatchObject({ total: 60, truncated: true });
    expect((result.diagnostics as unknown[]).length).toBe(50);
    writeFileSync(join(root, 'src/many.ts'), `${many}\nexport const extra: string = 1;\n`);
    const passive = (await lsp.diagnosticsAfterEdit(root, ['src/many.ts']))!;
    // All 61 are counted, though the note lists 20.
    expect(passive).toMatchObject({ errors: 61, warnings: 0 });
    const note = passive.text;
    expect(note).toContain('src/many.ts: 61 problems');
    expect(note).toContain('…and 41 more');
    expect(note.split('\n').filter((l) => / error TS2322: /.test(l)).length).toBe(20);
    expect(note.length).toBeLessThanOrEqual(4_000);
  });

  it('a server killed mid-session is restarted on the next call and answers', async () => {
    const [before] = lsp.runningServers();
    expect(before?.pid).toBeTypeOf('number');
    process.kill(before!.pid!, 'SIGKILL');
    expect(await waitGone(before!.pid!)).toBe(true);

    writeFileSync(join(root, 'src/main.ts'), MAIN_BROKEN);
    const result = await call({ operation: 'diagnostics', file_path: 'src/main.ts' });
    expect(result).toMatchObject({ kind: 'lsp_diagnostics', total: 1 });
    const [after] = lsp.runningServers();
    expect(after?.pid).toBeTypeOf('number');
    expect(after?.pid).not.toBe(before?.pid);
  });

  it('disposing the service shuts the server down and leaves no process', async () => {
    const pids = lsp.runningServers().map((s) => s.pid!);
    expect(pids.length).toBe(1);
    await lsp.dispose();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(await call({ operation: 'diagnostics', file_path: 'src/main.ts' })).toMatchObject({
      kind: 'error',
    });
  });
});
