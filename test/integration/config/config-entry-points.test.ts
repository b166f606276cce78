import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { CLI, startHost } from '../../helpers/host-process';
import { runMewbo, type CliResult } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// configs/app.json is read by one reader whatever starts the app (issue #26 part 9): `mewbo tool`
// and `mewbo mcp` refused an unknown key that `mewbo run` warned about. Through every entry point
// as a user runs it: an unknown key is a warning naming it and the command goes on; a bad value
// stops the one-shot commands before they act, naming the key, while `mewbo serve` (whose Settings
// list the problem) starts and says which key took its default. `mewbo login` reads no config.

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;
let config: string;

beforeAll(async () => {
  home = tempDir('mewbo-config-home-');
  project = tempDir('mewbo-config-proj-');
  fake = await FakeAnthropic.start();
  mkdirSync(join(home.dir, 'configs'));
  config = join(home.dir, 'configs', 'app.json');
  writeFileSync(join(project.dir, 'a.txt'), 'alpha\n');
});
afterAll(async () => {
  await fake.close();
  home.cleanup();
  project.cleanup();
});

const env = () => ({
  MEWBO_HOME: home.dir,
  ANTHROPIC_API_KEY: 'test-key',
  ANTHROPIC_BASE_URL: fake.url,
});

function sessions(): string[] {
  const dir = join(home.dir, 'sessions');
  return existsSync(dir) ? readdirSync(dir) : [];
}

function mewbo(args: string[]): Promise<CliResult> {
  return runMewbo(args, { cwd: project.dir, env: env() });
}

const readWithTool = () =>
  mewbo(['tool', 'read_file', '--root', project.dir, '--args', '{"path":"a.txt"}']);

/** `mewbo mcp` spoken to by the MCP SDK's client: the tools it lists (none if it did not start). */
async function mcp(): Promise<{ tools: string[]; stderr: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', project.dir],
    env: { ...process.env, ...env() } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'mewbo-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return { tools: tools.map((t) => t.name), stderr };
  } catch {
    return { tools: [], stderr };
  } finally {
    await client.close().catch(() => {});
  }
}

describe('an unknown key in configs/app.json is a warning naming it, and the command goes on', () => {
  const warning =
    /warning: .*configs\/app\.json: agent\.colour: unknown key "agent\.colour" is ignored/;
  let id = '';
  beforeAll(() => writeFileSync(config, JSON.stringify({ agent: { colour: 'red' } })));

  it('mewbo run', async () => {
    fake.script.push({ text: 'Done.' });
    const run = await mewbo(['run', '--project', project.dir, 'say done']);
    expect(run.stderr).toMatch(warning);
    expect(run.code).toBe(0);
    id = /session (s_[a-z0-9]+)/.exec(run.stderr)![1]!;
  });

  it('mewbo sessions rewind (of the session run made)', async () => {
    const rewind = await mewbo(['sessions', 'rewind', id, '--to-turn', '1', '--yes']);
    expect(rewind.stderr).toMatch(warning);
    expect(rewind.code).toBe(0);
  });

  it('mewbo tool', async () => {
    const tool = await readWithTool();
    expect(tool.stderr).toMatch(warning);
    expect(tool.code).toBe(0);
    expect(tool.stdout).toContain('alpha');
  });

  it('mewbo mcp', async () => {
    const served = await mcp();
    expect(served.stderr).toMatch(warning);
    expect(served.tools).toContain('read_file');
  });

  it('mewbo serve, and mewbo login beside it', async () => {
    const host = await startHost(home.dir);
    try {
      // The host, which reads the config, loads after the page answers (at most a second later).
      await vi.waitFor(() => expect(host.stderr()).toMatch(warning), { timeout: 20_000 });
      const login = await mewbo(['login']);
      expect(login.code).toBe(0);
      expect(login.stdout).toMatch(/\/login\?code=/);
    } finally {
      await host.stop();
    }
  });
});

describe('a bad value in configs/app.json stops the one-shot commands naming the key', () => {
  const named =
    /configs\/app\.json: permission_mode: Invalid option: expected one of "ask"\|"accept-edits"\|"auto"\|"plan"/;
  const refusedBy = (command: string) => new RegExp(`^mewbo ${command}: .*${named.source}`);
  beforeAll(() => writeFileSync(config, JSON.stringify({ permission_mode: 'sometimes' })));

  it('mewbo run, before it makes a session or asks the model', async () => {
    const sessionsBefore = sessions();
    const requestsBefore = fake.requests.length;
    const run = await mewbo(['run', '--project', project.dir, 'say done']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(refusedBy('run'));
    expect(run.stderr).not.toMatch(/using the default/);
    expect(sessions()).toEqual(sessionsBefore);
    expect(fake.requests.length).toBe(requestsBefore);
  });

  it('mewbo sessions rewind', async () => {
    const rewind = await mewbo(['sessions', 'rewind', 's_0123abcd', '--to-turn', '1', '--yes']);
    expect(rewind.code).toBe(1);
    expect(rewind.stderr).toMatch(refusedBy('sessions'));
  });

  it('mewbo tool', async () => {
    const tool = await readWithTool();
    expect(tool.code).toBe(1);
    expect(tool.stderr).toMatch(refusedBy('tool'));
    expect(tool.stdout).toBe('');
  });

  it('mewbo mcp', async () => {
    const served = await mcp();
    expect(served.tools).toEqual([]);
    expect(served.stderr).toMatch(refusedBy('mcp'));
  });

  it('mewbo serve starts on the default and names the key (its Settings list it); login works', async () => {
    const host = await startHost(home.dir);
    try {
      await vi.waitFor(
        () =>
          expect(host.stderr()).toMatch(
            new RegExp(`error: .*${named.source}.*; using the default \\("ask"\\)`),
          ),
        { timeout: 20_000 },
      );
      const login = await mewbo(['login']);
      expect(login.code).toBe(0);
    } finally {
      await host.stop();
    }
  });
});
