import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  adoptSessionFolders,
  LOG_FILE,
  META_FILE,
  newSessionId,
  SESSION_ID_PATTERN,
} from '../../../electron/host/sessions/session-folders';
import { tempDir } from '../../helpers/temp';

// A session folder a person put under sessions/ (a copy, a restored backup, any name) is listed
// like the rest: adopted with an id and a meta.json rebuilt from its log. Nothing else is touched.

let t: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  t?.cleanup();
  t = undefined;
});

const line = (seq: number, ts: number, body: Record<string, unknown>) =>
  JSON.stringify({ seq, ts, ...body }) + '\n';
const created = (title: string) => ({
  type: 'session_created',
  title,
  project: 'proj',
  root: '/srv/proj',
});

function sessions(): string {
  t = tempDir('mewbo-sf-');
  return join(t.dir, 'sessions');
}

function folder(dir: string, name: string, log: string, meta?: unknown): string {
  const f = join(dir, name);
  mkdirSync(f, { recursive: true });
  writeFileSync(join(f, LOG_FILE), log);
  if (meta !== undefined)
    writeFileSync(join(f, META_FILE), typeof meta === 'string' ? meta : JSON.stringify(meta));
  return f;
}

const readMeta = (dir: string, id: string) =>
  JSON.parse(readFileSync(join(dir, id, META_FILE), 'utf8')) as Record<string, unknown>;

describe('session folders', () => {
  it('ids are s_ and base-36 time plus random hex, unique, and match the id pattern', () => {
    const ids = new Set(Array.from({ length: 30 }, newSessionId));
    expect(ids.size).toBe(30);
    for (const id of ids) expect(id).toMatch(SESSION_ID_PATTERN);
    expect(SESSION_ID_PATTERN.test('s_abc12')).toBe(false); // too short
    expect(SESSION_ID_PATTERN.test('s_ABCDEF')).toBe(false);
    expect(SESSION_ID_PATTERN.test('xs_abcdef')).toBe(false);
    expect(SESSION_ID_PATTERN.test('s_abcdef/')).toBe(false);
    expect(SESSION_ID_PATTERN.test(`s_${'a'.repeat(41)}`)).toBe(false);
    expect(SESSION_ID_PATTERN.test(`s_${'a'.repeat(40)}`)).toBe(true);
  });

  it('no sessions directory: nothing adopted', async () => {
    expect(await adoptSessionFolders(sessions(), () => {})).toEqual([]);
  });

  it('a folder with any name and a log is adopted under a new id, its meta rebuilt from the log', async () => {
    const dir = sessions();
    folder(
      dir,
      'my backup',
      line(0, 111, created('First')) +
        line(1, 222, { type: 'session_renamed', title: 'Second' }) +
        line(2, 333, { type: 'session_renamed', title: 'Third' }),
    );
    const warnings: string[] = [];
    const ids = await adoptSessionFolders(dir, (l) => warnings.push(l));
    expect(ids).toHaveLength(1);
    const id = ids[0]!;
    expect(id).toMatch(SESSION_ID_PATTERN);
    expect(readdirSync(dir)).toEqual([id]);
    expect(readMeta(dir, id)).toEqual({
      id,
      title: 'Third',
      project: 'proj',
      root: '/srv/proj',
      created_at: 111,
      event_count: 3,
    });
    expect(warnings).toEqual([
      `sessions: adopted the folder my backup as session ${id} (${join(dir, id)})`,
    ]);
  });

  it('a session folder whose meta.json is missing or unreadable keeps its name and gets a new meta', async () => {
    const dir = sessions();
    folder(dir, 's_aaaaaa1', line(0, 5, created('Kept')));
    folder(dir, 's_aaaaaa2', line(0, 5, created('Kept2')), '{ broken');
    folder(dir, 's_aaaaaa3', line(0, 5, created('Kept3')), { id: 's_aaaaaa3', title: 7 });
    const warnings: string[] = [];
    const ids = await adoptSessionFolders(dir, (l) => warnings.push(l));
    expect(ids.sort()).toEqual(['s_aaaaaa1', 's_aaaaaa2', 's_aaaaaa3']);
    expect(readdirSync(dir).sort()).toEqual(['s_aaaaaa1', 's_aaaaaa2', 's_aaaaaa3']);
    expect(readMeta(dir, 's_aaaaaa2')).toMatchObject({ id: 's_aaaaaa2', title: 'Kept2' });
    expect(warnings).toContain(
      'sessions: s_aaaaaa1 had no readable meta.json; rebuilt it from its log',
    );
  });

  it('leaves alone: sessions with a valid meta, hidden folders, folders without a log, plain files', async () => {
    const dir = sessions();
    const meta = { id: 's_bbbbbb1', title: 'Mine', created_at: 9, project: null, root: null };
    folder(dir, 's_bbbbbb1', line(0, 5, created('Other title')), meta);
    folder(dir, '.trash', line(0, 5, created('Hidden')));
    mkdirSync(join(dir, 'no-log'));
    mkdirSync(join(dir, 'log-is-dir', LOG_FILE), { recursive: true });
    writeFileSync(join(dir, 'stray.txt'), 'x');
    const warnings: string[] = [];
    expect(await adoptSessionFolders(dir, (l) => warnings.push(l))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([
      '.trash',
      'log-is-dir',
      'no-log',
      's_bbbbbb1',
      'stray.txt',
    ]);
    expect(readMeta(dir, 's_bbbbbb1')).toEqual(meta);
    expect(existsSync(join(dir, '.trash', META_FILE))).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('a meta needs an id, a title and a created_at of the right types', async () => {
    const dir = sessions();
    const ok = { id: 'x', title: 't', created_at: 1 };
    folder(dir, 's_cccccc1', line(0, 5, created('a')), { ...ok, id: 1 });
    folder(dir, 's_cccccc2', line(0, 5, created('b')), { ...ok, created_at: '1' });
    folder(dir, 's_cccccc3', line(0, 5, created('c')), null);
    folder(dir, 's_cccccc4', line(0, 5, created('d')), ok);
    expect((await adoptSessionFolders(dir, () => {})).sort()).toEqual([
      's_cccccc1',
      's_cccccc2',
      's_cccccc3',
    ]);
  });

  it('a log without session_created or readable events: a recovered title, created_at from the file', async () => {
    const dir = sessions();
    const f = folder(dir, 's_dddddd1', 'not json\n');
    utimesSync(join(f, LOG_FILE), 1_700_000_000, 1_700_000_000);
    folder(
      dir,
      's_dddddd2',
      line(0, 42, created('')) + line(3, 43, { type: 'user_message', text: 'x', message_id: 'm' }),
    );
    await adoptSessionFolders(dir, () => {});
    expect(readMeta(dir, 's_dddddd1')).toEqual({
      id: 's_dddddd1',
      title: 'Recovered session',
      project: null,
      root: null,
      created_at: statSync(join(f, LOG_FILE)).mtimeMs,
      event_count: 0,
    });
    expect(readMeta(dir, 's_dddddd2')).toMatchObject({
      title: 'Recovered session',
      created_at: 42,
      event_count: 4,
    });
  });

  it('a folder that cannot be adopted is named in a warning and the others still are', async () => {
    const dir = sessions();
    // meta.json is a directory: the rebuilt meta cannot be written over it.
    const bad = folder(dir, 's_eeeeee1', line(0, 5, created('x')));
    mkdirSync(join(bad, META_FILE));
    writeFileSync(join(bad, META_FILE, 'f'), 'x');
    folder(dir, 's_eeeeee2', line(0, 5, created('y')));
    const warnings: string[] = [];
    expect(await adoptSessionFolders(dir, (l) => warnings.push(l))).toEqual(['s_eeeeee2']);
    expect(warnings[0]).toMatch(new RegExp(`^sessions: could not adopt ${bad}: .+`));
  });

  it('a sessions path that is not a directory is an error, not an empty list', async () => {
    const dir = sessions();
    writeFileSync(dir, 'x');
    await expect(adoptSessionFolders(dir, () => {})).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('without a warn function, adoption is told on stderr', async () => {
    const dir = sessions();
    folder(dir, 's_ffffff1', line(0, 5, created('x')));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await adoptSessionFolders(dir);
      expect(warn).toHaveBeenCalledWith(
        'sessions: s_ffffff1 had no readable meta.json; rebuilt it from its log',
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('a meta whose title is not text is rebuilt', async () => {
    const dir = sessions();
    folder(dir, 's_gggggg1', line(0, 5, created('From log')), {
      id: 's_gggggg1',
      title: 7,
      created_at: 1,
    });
    expect(await adoptSessionFolders(dir, () => {})).toEqual(['s_gggggg1']);
    expect(readMeta(dir, 's_gggggg1').title).toBe('From log');
  });

  it('the title is the session_created one wherever it is, then the last rename', async () => {
    const dir = sessions();
    const msg = { type: 'user_message', text: 'hi', message_id: 'm' };
    folder(
      dir,
      's_hhhhhh1',
      line(0, 5, msg) +
        line(1, 6, created('Made')) +
        line(2, 7, { type: 'session_renamed', title: 'Renamed' }) +
        line(3, 8, msg),
    );
    folder(
      dir,
      's_hhhhhh2',
      line(0, 5, msg) + line(1, 6, created('Only created')) + line(2, 7, msg),
    );
    await adoptSessionFolders(dir, () => {});
    expect(readMeta(dir, 's_hhhhhh1')).toMatchObject({
      title: 'Renamed',
      project: 'proj',
      root: '/srv/proj',
    });
    expect(readMeta(dir, 's_hhhhhh2').title).toBe('Only created');
  });
});
