import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assignInPlace, ConfigStore } from '../../../electron/host/config/config-store';
import { ConfigError } from '../../../electron/host/config/config-error';
import {
  describeIssues,
  loadConfigFile,
  parseConfig,
} from '../../../electron/host/config/load-config';
import { readConfigText, validateConfig } from '../../../electron/host/config/read-config';
import { configSchemas } from '../../../electron/host/config/schema';
import { CONFIG_WRITE_RETRIES } from '../../../electron/host/config/constants';
import { tempDir } from '../../helpers/temp';

// The edges of reading and owning configs/app.json: what a broken file, a broken entry or a file
// full of mistakes does (never stop the app, never lose the user's text), and the strict loader
// the CLI uses.

const FILE = '/home/u/.mewbo/configs/app.json';
const defaults = configSchemas().app.parse({});

let temp: ReturnType<typeof tempDir> | undefined;
const stores: ConfigStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.dispose();
  temp?.cleanup();
  temp = undefined;
  vi.restoreAllMocks();
});

function home() {
  temp = tempDir('mewbo-cfg-');
  return join(temp.dir, 'configs', 'app.json');
}

/** A store on a fresh home's app.json (holding `text` when given), not watching, quiet. */
function openStore(text?: string): { file: string; store: ConfigStore } {
  const file = home();
  mkdirSync(join(temp!.dir, 'configs'));
  if (text !== undefined) writeFileSync(file, text);
  const store = ConfigStore.open({ file, watch: false, warn: () => {} });
  stores.push(store);
  return { file, store };
}

describe('reading a config with mistakes', () => {
  it('a bad element of a list is dropped alone, the rest of the list kept', () => {
    const r = readConfigText(
      JSON.stringify({ agent: { shell_denied_paths: ['/a', 5, '/b'] } }),
      FILE,
    );
    expect(r.config.agent.shell_denied_paths).toEqual(['/a', '/b']);
    expect(r.problems).toEqual([
      {
        level: 'error',
        file: FILE,
        key: 'agent.shell_denied_paths.1',
        message: expect.stringMatching(
          /^\/home\/u\/\.mewbo\/configs\/app\.json: agent\.shell_denied_paths\.1: .+; it is ignored$/,
        ),
      },
    ]);
  });

  it('a network destination that is not one is dropped alone, saying what is wrong with it', () => {
    const r = readConfigText(
      JSON.stringify({
        sandbox: { network: { allow: ['*.npmjs.org', 'https://github.com', 'github.com'] } },
        projects: { p: { path: '/srv', network_allow: ['api.example.com:443'] } },
      }),
      FILE,
    );
    expect(r.config.sandbox.network.allow).toEqual(['*.npmjs.org', 'github.com']);
    expect(r.config.projects.p!.network_allow).toEqual([]);
    expect(r.problems.map((p) => [p.key, p.message])).toEqual([
      [
        'projects.p.network_allow.0',
        expect.stringContaining('"api.example.com:443": a destination names a host, not a port'),
      ],
      [
        'sandbox.network.allow.1',
        expect.stringContaining('"https://github.com": write the host alone, without a scheme'),
      ],
    ]);
  });

  it('an unknown key inside a record entry is a warning with its full path', () => {
    const r = readConfigText(
      JSON.stringify({ projects: { p: { path: '/srv', colour: 1 } } }),
      FILE,
    );
    expect(r.config.projects.p!.path).toBe('/srv');
    expect(r.problems).toEqual([
      {
        level: 'warning',
        file: FILE,
        key: 'projects.p.colour',
        message: `${FILE}: projects.p.colour: unknown key "projects.p.colour" is ignored`,
      },
    ]);
  });

  it('a byte order mark before broken JSON: a warning, then the error, and defaults', () => {
    const r = readConfigText('\uFEFF{ nope', FILE);
    expect(r.raw).toBeNull();
    expect(r.config).toEqual(defaults);
    expect(r.problems.map((p) => [p.level, p.key])).toEqual([
      ['warning', '(file)'],
      ['error', '(file)'],
    ]);
    expect(r.problems[0]!.message).toBe(
      `${FILE}: starts with a UTF-8 byte order mark; it is ignored`,
    );
    expect(r.problems[1]!.message).toMatch(
      /^\/home\/u\/\.mewbo\/configs\/app\.json: not valid JSON \(.+\); every setting takes its default$/,
    );
  });

  it('JSON that is not an object (null, a list, a number) is one error and all defaults', () => {
    for (const text of ['null', '[]', '7', '"x"']) {
      const r = readConfigText(text, FILE);
      expect(r.raw).toBeNull();
      expect(r.config).toEqual(defaults);
      expect(r.problems).toEqual([
        {
          level: 'error',
          file: FILE,
          key: '(file)',
          message: `${FILE}: must hold a JSON object; every setting takes its default`,
        },
      ]);
    }
  });

  it('a file with a valid object keeps its raw JSON (what in-app changes merge into)', () => {
    const r = readConfigText('{"permission_mode":"plan","zzz":1}', FILE);
    expect(r.raw).toEqual({ permission_mode: 'plan', zzz: 1 });
    expect(readConfigText(undefined, FILE)).toEqual({ config: defaults, problems: [], raw: {} });
    expect(readConfigText(' \n\t', FILE).raw).toEqual({});
  });

  it('validating never changes the object it is given', () => {
    const raw = { agent: { max_steps: 0, colour: 'x' } };
    const copy = structuredClone(raw);
    validateConfig(raw, FILE);
    expect(raw).toEqual(copy);
  });

  it('a file with hundreds of mistakes still opens, with all defaults and one last error', () => {
    const projects = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`p${i}`, { path: 'relative' }]),
    );
    const r = validateConfig({ projects }, FILE);
    expect(r.config).toEqual(defaults);
    expect(r.problems.at(-1)).toEqual({
      level: 'error',
      file: FILE,
      key: '(file)',
      message: `${FILE}: too many mistakes; every setting takes its default`,
    });
    // Below the limit every broken entry is dropped and named, the good one kept.
    const few = validateConfig(
      {
        projects: {
          ...Object.fromEntries(Object.entries(projects).slice(0, 5)),
          ok: { path: '/srv' },
        },
      },
      FILE,
    );
    expect(Object.keys(few.config.projects)).toEqual(['ok']);
    expect(few.problems.map((p) => p.key)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `projects.p${i}.path`),
    );
  });

  it('the default a bad key falls back to is named; a key with no default is ignored', () => {
    const r = readConfigText(JSON.stringify({ shells: { max_sessions: -1 } }), FILE);
    expect(r.problems[0]!.message).toMatch(/; using the default \(32\)$/);
    expect(r.config.shells.max_sessions).toBe(32);
  });
});

describe('the loader of the one-shot commands (refusing errors)', () => {
  it('a missing file is all defaults', () => {
    const file = home();
    expect(loadConfigFile(file)).toEqual(defaults);
  });

  it('reads a valid file', () => {
    const file = home();
    mkdirSync(join(temp!.dir, 'configs'));
    writeFileSync(file, JSON.stringify({ permission_mode: 'plan' }));
    expect(loadConfigFile(file).permission_mode).toBe('plan');
  });

  it('broken JSON is a ConfigError naming the file', () => {
    const file = home();
    mkdirSync(join(temp!.dir, 'configs'));
    writeFileSync(file, '{ nope');
    let err: unknown;
    try {
      loadConfigFile(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).name).toBe('ConfigError');
    expect((err as Error).message).toMatch(new RegExp(`^${file}: not valid JSON \\(.+\\)$`));
  });

  it('an unknown key is printed as a warning and the rest is read', () => {
    const file = home();
    mkdirSync(join(temp!.dir, 'configs'));
    writeFileSync(file, JSON.stringify({ permission_mode: 'plan', colour: 'red' }));
    const lines: string[] = [];
    expect(loadConfigFile(file, (l) => lines.push(l)).permission_mode).toBe('plan');
    expect(lines).toEqual([`warning: ${file}: colour: unknown key "colour" is ignored`]);
  });

  it('a bad value is a ConfigError naming the key, with no word of a default it will not use', () => {
    const file = home();
    mkdirSync(join(temp!.dir, 'configs'));
    writeFileSync(file, JSON.stringify({ agent: { shell_sandbox: 'yes' } }));
    const err = (() => {
      try {
        loadConfigFile(file);
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.key).toBe('agent.shell_sandbox');
    expect(err!.message).toBe(
      `${file}: agent.shell_sandbox: Invalid input: expected boolean, received string`,
    );
  });

  it('a file that cannot be read for another reason is that error, not defaults', () => {
    const file = home();
    mkdirSync(file, { recursive: true }); // a directory where the file should be
    expect(() => loadConfigFile(file)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });

  it('a bad value is a ConfigError naming the file, the key and the problem, every issue on its line', () => {
    let err: ConfigError | undefined;
    try {
      parseConfig({ permission_mode: 'x', agent: { max_steps: 0 } }, 'my.json');
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const lines = err!.message.split('\n');
    expect(lines).toHaveLength(2);
    // The key is the first issue's.
    expect(lines[0]!.startsWith(`my.json: ${err!.key}: `)).toBe(true);
    expect(lines.map((l) => l.split(': ')[1]).sort()).toEqual([
      'agent.max_steps',
      'permission_mode',
    ]);
    // In code an unknown key is a mistake too, and JSON that is no object.
    expect(() => parseConfig({ x: 1 })).toThrow(/^configs\/app\.json: x: unknown key "x"/);
    expect(() => parseConfig([1])).toThrow(/^configs\/app\.json: must hold a JSON object$/);
    expect(parseConfig(null)).toEqual(defaults);
    expect(parseConfig(undefined)).toEqual(defaults);
  });

  it('describeIssues names a root-level issue (root)', () => {
    const r = configSchemas().app.safeParse(5);
    expect(describeIssues('f.json', r.error!)).toMatch(/^f\.json: \(root\): /);
  });
});

describe('the config store: edges', () => {
  it('prints each problem once, with its level, however often the file is re-read', async () => {
    const file = home();
    mkdirSync(join(temp!.dir, 'configs'));
    writeFileSync(file, JSON.stringify({ bogus: 1 }));
    const lines: string[] = [];
    const store = ConfigStore.open({ file, watch: false, warn: (l) => lines.push(l) });
    stores.push(store);
    expect(lines).toEqual([`warning: ${file}: bogus: unknown key "bogus" is ignored`]);
    writeFileSync(file, JSON.stringify({ bogus: 1, permission_mode: 'plan' }));
    expect(await store.reload()).toBe(true);
    expect(store.config.permission_mode).toBe('plan');
    expect(lines).toHaveLength(1);
    expect(store.problems.map((p) => p.key)).toEqual(['bogus']);
    writeFileSync(file, JSON.stringify({ agent: { max_steps: 0 } }));
    await store.reload();
    expect(lines[1]).toMatch(/^error: .*agent\.max_steps/);
    expect(store.problems.map((p) => p.key)).toEqual(['agent.max_steps']);
  });

  it('without a warn function, problems go to stderr (console.warn)', () => {
    const file = home();
    mkdirSync(join(temp!.dir, 'configs'));
    writeFileSync(file, JSON.stringify({ bogus: 1 }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stores.push(ConfigStore.open({ file, watch: false }));
    expect(warn).toHaveBeenCalledWith(`warning: ${file}: bogus: unknown key "bogus" is ignored`);
  });

  it('a hand edit that breaks the JSON keeps the settings in effect and says why', async () => {
    const { file, store } = openStore(JSON.stringify({ permission_mode: 'plan' }));
    const changes: string[] = [];
    store.onDidChange((c) => changes.push(c.source));
    writeFileSync(file, '{ "permission_mode": "au');
    expect(await store.reload()).toBe(true);
    expect(store.config.permission_mode).toBe('plan');
    expect(store.problems[0]).toMatchObject({ level: 'error', key: '(file)' });
    expect(changes).toEqual(['file']);
    // Unchanged text is not reloaded again.
    expect(await store.reload()).toBe(false);
  });

  it('a file deleted by hand is all defaults again', async () => {
    const { file, store } = openStore(JSON.stringify({ permission_mode: 'plan' }));
    const { rmSync } = await import('node:fs');
    rmSync(file);
    expect(await store.reload()).toBe(true);
    expect(store.config.permission_mode).toBe('ask');
  });

  it('an in-app change keeps a key that was already wrong in the file, and refuses adding one', async () => {
    const { file, store } = openStore(JSON.stringify({ shells: { max_sessions: -1 } }));
    await store.update((raw) => {
      raw.permission_mode = 'plan';
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      shells: { max_sessions: -1 },
      permission_mode: 'plan',
    });
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('\n  "permission_mode"');
    let err: ConfigError | undefined;
    await store
      .update((raw) => {
        raw.agent = { max_steps: 0 };
      })
      .catch((e: ConfigError) => (err = e));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.key).toBe('agent.max_steps');
    expect(err!.message).toMatch(/^.*app\.json: agent\.max_steps: /);
  });

  it('the first open creates the configs directory it watches', async () => {
    const file = home();
    const store = ConfigStore.open({ file, warn: () => {} });
    stores.push(store);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(temp!.dir, 'configs'))).toBe(true);
    expect(store.file).toBe(file);
  });
});

describe('the config store: a hand save racing an in-app change', () => {
  it('a hand save landing while a change is merged is merged again, not written over', async () => {
    const { file, store } = openStore();
    let calls = 0;
    await store.update((raw) => {
      calls++;
      // The first time, a hand save lands between the store's read and its write.
      if (calls === 1) writeFileSync(file, JSON.stringify({ agent: { max_steps: 7 } }));
      raw.permission_mode = 'plan';
    });
    expect(calls).toBe(2);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      agent: { max_steps: 7 },
      permission_mode: 'plan',
    });
    expect(store.config.agent.max_steps).toBe(7);
    expect(store.config.permission_mode).toBe('plan');
  });

  it('an editor that never stops saving: after the retries the change is written anyway', async () => {
    const { file, store } = openStore();
    let calls = 0;
    await store.update((raw) => {
      calls++;
      writeFileSync(file, JSON.stringify({ agent: { max_steps: calls } }));
      raw.permission_mode = 'plan';
    });
    expect(calls).toBe(CONFIG_WRITE_RETRIES + 1);
    // The last merge was onto the edit it read (the one before its own callback's save).
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      agent: { max_steps: CONFIG_WRITE_RETRIES },
      permission_mode: 'plan',
    });
  });

  it('a reload that fails is said on stderr with the file, and the store keeps going', async () => {
    const file = home();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = ConfigStore.open({ file, warn: () => {} });
    stores.push(store);
    mkdirSync(file); // app.json replaced by a directory: reading it fails with EISDIR
    const end = Date.now() + 20_000;
    while (!warn.mock.calls.some(([l]) => String(l).startsWith(`${file}: reload failed: `))) {
      if (Date.now() > end) throw new Error('no reload failure was reported');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(store.config.permission_mode).toBe('ask');
  });
});

describe('the config store: what it touches and what it refuses', () => {
  it('without watching, opening touches nothing on disk', () => {
    const file = home();
    stores.push(ConfigStore.open({ file, watch: false, warn: () => {} }));
    expect(existsSync(join(temp!.dir, 'configs'))).toBe(false);
  });

  it('watching creates the configs directory and every missing parent', () => {
    temp = tempDir('mewbo-cfg-');
    const file = join(temp.dir, 'no', 'such', 'home', 'configs', 'app.json');
    stores.push(ConfigStore.open({ file, warn: () => {} }));
    expect(existsSync(dirname(file))).toBe(true);
  });

  it('an app.json that cannot be read (a directory) stops the open with that error', () => {
    const file = home();
    mkdirSync(file, { recursive: true });
    expect(() => ConfigStore.open({ file, watch: false, warn: () => {} })).toThrow(
      expect.objectContaining({ code: 'EISDIR' }),
    );
  });

  it('the refusal to write over broken JSON quotes the JSON error, not a warning before it', async () => {
    const { store } = openStore('\uFEFF{ broken');
    const err = await store.update(() => {}).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /app\.json: not valid JSON \(.+\); every setting takes its default\. Fix the file by hand; the app will not write over it\.$/,
    );
  });

  it('a change that breaks two keys names both, one per line', async () => {
    const { file, store } = openStore();
    const err = (await store
      .update((raw) => {
        raw.permission_mode = 'never';
        raw.agent = { max_steps: 0 };
      })
      .catch((e: unknown) => e)) as ConfigError;
    const lines = err.message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.split(': ')[1]).sort()).toEqual([
      'agent.max_steps',
      'permission_mode',
    ]);
    expect(existsSync(file)).toBe(false);
  });

  it('dispose waits for queued changes, then announces nothing more', async () => {
    const file = home();
    mkdirSync(join(temp!.dir, 'configs'));
    const store = ConfigStore.open({ file, watch: false, warn: () => {} });
    const seen: string[] = [];
    store.onDidChange((c) => seen.push(c.config.permission_mode));
    const pending = store.update((raw) => {
      raw.permission_mode = 'plan';
    });
    await store.dispose();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permission_mode: 'plan' });
    await pending;
    expect(seen).toEqual(['plan']);
    await store.update((raw) => {
      raw.permission_mode = 'auto';
    });
    expect(seen).toEqual(['plan']);
  });

  it('99 broken entries are all repaired; 100 exceed the repair limit (200 rounds)', () => {
    // Each broken project takes two rounds (its path, then the entry), plus one to parse.
    const projects = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { path: 'relative' }]));
    const ok = validateConfig({ projects: projects(99) }, FILE);
    expect(ok.problems.at(-1)!.message).not.toMatch(/too many mistakes/);
    expect(ok.problems).toHaveLength(99);
    const over = validateConfig({ projects: projects(100) }, FILE);
    expect(over.problems.at(-1)!.message).toMatch(/too many mistakes/);
  });
});

describe('assignInPlace', () => {
  it('makes the target equal to the source, keeping nested objects both have', () => {
    const inner = { a: 1, gone: 2 };
    const target: Record<string, unknown> = { inner, drop: true, list: [1, 2] };
    assignInPlace(target, { inner: { a: 3, b: 4 }, list: [3], added: 'x' });
    expect(target).toEqual({ inner: { a: 3, b: 4 }, list: [3], added: 'x' });
    expect(target.inner).toBe(inner);
    // An object replacing a scalar, and a scalar replacing an object.
    const t2: Record<string, unknown> = { x: 1, y: { z: 1 } };
    assignInPlace(t2, { x: { k: 1 }, y: 2 });
    expect(t2).toEqual({ x: { k: 1 }, y: 2 });
  });
});
