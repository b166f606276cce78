import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runUnconfined } from '../../helpers/acp-naive-client';
import { tempDir } from '../../helpers/temp';
import { AcpWorld } from '../../integration/acp/acp-harness';

// Issue 30 part 3: an external agent asks the client to write files (fs/write_text_file). A
// client that writes where it is told lets the agent write anywhere the app may: outside the
// project, and through a symbolic link planted in it. The app serves the method with its own file
// tools, which refuse both. The control is the same scripted agent and the same requests against
// a client that writes the path it is given.

const PAYLOAD = 'written by the agent\n';

let w: AcpWorld | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await w?.close();
  w = undefined;
  for (const c of cleanups.splice(0)) c();
});

/** The agent's two writes: outside the root by its path, and through a link planted in the root. */
function attack(outside: string) {
  return [
    { write: { path: join(outside, 'direct.txt'), content: PAYLOAD } },
    { write: { path: 'ROOT/planted/through-link.txt', content: PAYLOAD } },
    { write: { path: 'ROOT/inside.txt', content: PAYLOAD } },
  ];
}

/** A folder outside the project, and the project's planted link to it. */
function plant(project: string): string {
  const t = tempDir('mewbo-acp-outside-');
  cleanups.push(t.cleanup);
  symlinkSync(t.dir, join(project, 'planted'));
  return t.dir;
}

describe('fs/write_text_file from an external agent', () => {
  it('control: a client that writes the path it is given writes outside the project, also through a planted link', async () => {
    const project = tempDir('mewbo-acp-naive-');
    cleanups.push(project.cleanup);
    const outside = plant(project.dir);
    const side = tempDir('mewbo-acp-script-');
    cleanups.push(side.cleanup);
    await runUnconfined({
      dir: side.dir,
      cwd: project.dir,
      turns: [attack(outside)],
      capabilities: { fs: { writeTextFile: true } },
      register: (naive) =>
        naive.onRequest('fs/write_text_file', ({ params }) => {
          mkdirSync(dirname(params.path), { recursive: true });
          writeFileSync(params.path, params.content);
          return {};
        }),
    });
    expect(readFileSync(join(outside, 'direct.txt'), 'utf8')).toBe(PAYLOAD);
    expect(readFileSync(join(outside, 'through-link.txt'), 'utf8')).toBe(PAYLOAD);
  });

  it('the app refuses both, names why, and still writes inside the project', async () => {
    w = await AcpWorld.start({ turns: [] }, { config: { permission_mode: 'auto' } });
    const outside = plant(w.h.project);
    writeFileSync(
      join(w.dir, 'script.json'),
      JSON.stringify({ record: join(w.dir, 'record.jsonl'), turns: [attack(outside)] }),
    );
    const id = await w.session();
    await w.turn(id, 'go');
    const steps = w.record().filter((r) => r.step === 'write');
    expect(steps[0]!.error).toMatch(/is outside the project root/);
    expect(steps[1]!.error).toMatch(/leads outside the project root through a symlink/);
    expect(steps[2]).toEqual({ step: 'write', result: {} });
    expect(existsSync(join(outside, 'direct.txt'))).toBe(false);
    expect(existsSync(join(outside, 'through-link.txt'))).toBe(false);
    expect(readFileSync(join(w.h.project, 'inside.txt'), 'utf8')).toBe(PAYLOAD);
  });
});
