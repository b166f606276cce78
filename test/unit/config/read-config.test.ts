import { describe, expect, it } from 'vitest';
import { readConfigText } from '../../../electron/host/config/read-config';

const FILE = '/home/u/.mewbo/configs/app.json';

describe('reading configs/app.json forgivingly', () => {
  it('warns about an unknown key, naming the file and the key, and keeps the rest', () => {
    const r = readConfigText(
      JSON.stringify({ permision_mode: 'auto', agent: { max_steps: 9, colour: 'red' } }),
      FILE,
    );
    expect(r.config.agent.max_steps).toBe(9);
    expect(r.problems).toEqual([
      {
        level: 'warning',
        file: FILE,
        key: 'agent.colour',
        message: `${FILE}: agent.colour: unknown key "agent.colour" is ignored`,
      },
      {
        level: 'warning',
        file: FILE,
        key: 'permision_mode',
        message: `${FILE}: permision_mode: unknown key "permision_mode" is ignored`,
      },
    ]);
  });

  it('warns about a UTF-8 byte order mark and reads the file anyway', () => {
    const r = readConfigText('\uFEFF{"permission_mode":"plan"}', FILE);
    expect(r.config.permission_mode).toBe('plan');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ level: 'warning', file: FILE });
    expect(r.problems[0]!.message).toMatch(/app\.json: starts with a UTF-8 byte order mark/);
  });

  it('a bad value for a known key is an error naming the key and the expected type; the key takes its default', () => {
    const r = readConfigText(
      JSON.stringify({ permission_mode: 'plan', agent: { shell_sandbox: 'yes', max_steps: 5 } }),
      FILE,
    );
    expect(r.config.agent.shell_sandbox).toBe(true);
    expect(r.config.agent.max_steps).toBe(5);
    expect(r.config.permission_mode).toBe('plan');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ level: 'error', key: 'agent.shell_sandbox' });
    expect(r.problems[0]!.message).toBe(
      `${FILE}: agent.shell_sandbox: Invalid input: expected boolean, received string; using the default (true)`,
    );
  });

  it('drops a broken entry of a record (a project without a usable path) and keeps the others', () => {
    const r = readConfigText(
      JSON.stringify({ projects: { bad: { path: 'relative' }, good: { path: '/srv/app' } } }),
      FILE,
    );
    expect(Object.keys(r.config.projects)).toEqual(['good']);
    expect(r.problems.map((p) => [p.level, p.key])).toEqual([['error', 'projects.bad.path']]);
  });

  it('several mistakes are each reported once', () => {
    const r = readConfigText(
      JSON.stringify({
        permission_mode: 'sometimes',
        shells: { max_sessions: -1, kill_grace_ms: 10 },
        devices: { port: 'x' },
      }),
      FILE,
    );
    expect(r.config.permission_mode).toBe('ask');
    expect(r.config.shells.max_sessions).toBe(32);
    expect(r.config.shells.kill_grace_ms).toBe(10);
    expect(r.config.devices.port).toBe(0);
    expect(r.problems.map((p) => p.key).sort()).toEqual([
      'devices.port',
      'permission_mode',
      'shells.max_sessions',
    ]);
    expect(r.problems.every((p) => p.level === 'error')).toBe(true);
  });

  it('text that is not JSON is an error and every setting takes its default; a missing file is silent', () => {
    const r = readConfigText('{ nope', FILE);
    expect(r.raw).toBeNull();
    expect(r.config.permission_mode).toBe('ask');
    expect(r.problems[0]).toMatchObject({ level: 'error', key: '(file)' });
    expect(r.problems[0]!.message).toMatch(
      /^\/home\/u\/\.mewbo\/configs\/app\.json: not valid JSON/,
    );
    expect(readConfigText('[1]', FILE).problems[0]!.message).toMatch(/must hold a JSON object/);
    expect(readConfigText(undefined, FILE).problems).toEqual([]);
    expect(readConfigText('  \n', FILE).problems).toEqual([]);
  });
});
