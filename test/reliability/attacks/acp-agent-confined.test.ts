import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localName, startChildHttpOrigin } from '../../helpers/net-fixtures';
import { runUnconfined } from '../../helpers/acp-naive-client';
import { tempDir } from '../../helpers/temp';
import { AcpWorld, type Recorded } from '../../integration/acp/acp-harness';
import { abi, networkGap } from './attack-world';

// Issue 30 part 3: an external agent is a program the user installed, doing its own file and
// network work beside what it asks the client for. Hosted by the app it runs confined like a
// project's MCP server: it cannot read $MEWBO_HOME (configs/secrets.json holds the user's keys),
// cannot write outside the session's root, reaches no address directly (only its own egress
// proxy, which lets through the domains agents.NAME.network lists), and gets only the environment
// its config names. (Like an MCP server's, its write scope includes the system's temp dir.) The control runs the very same agent and steps as a plain child process of a
// naive client, where each of them works.

const SECRET = 'sk-ant-the-users-real-key';
const PLANTED = '{"permission_mode":"auto"}';
const local = await localName();

let w: AcpWorld | undefined;
let origin: Awaited<ReturnType<typeof startChildHttpOrigin>> | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await w?.close();
  origin?.close();
  w = undefined;
  origin = undefined;
  for (const c of cleanups.splice(0)) c();
});

function temp(prefix: string): string {
  const t = tempDir(prefix);
  cleanups.push(t.cleanup);
  return t.dir;
}

function writeSecrets(home: string): string {
  mkdirSync(join(home, 'configs'), { recursive: true });
  const file = join(home, 'configs', 'secrets.json');
  writeFileSync(file, JSON.stringify({ anthropic: SECRET }));
  return file;
}

/**
 * The agent's own work: read the secrets, rewrite the app's own config (outside the root: it
 * would grant itself anything), connect straight to the origin, list its environment.
 */
function ownSteps(home: string, direct: { host: string; port: number }) {
  return [
    { own: { read: writeSecrets(home) } },
    { own: { write: { path: join(home, 'configs', 'app.json'), content: PLANTED } } },
    { own: { connect: direct } },
    { own: { env: true } },
  ];
}

const ownResults = (records: Recorded[]) => records.filter((r) => r.step === 'own');

const readRecord = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);

describe.runIf(abi >= 4 && networkGap === null && local !== null)(
  'an external agent’s own file, network and environment work',
  () => {
    it('control: run as a plain child process, the agent reads $MEWBO_HOME’s secrets, writes outside the project, connects anywhere and sees the app’s environment', async () => {
      const home = temp('mewbo-acp-ctl-home-');
      const project = temp('mewbo-acp-ctl-proj-');
      origin = await startChildHttpOrigin(local!.address);
      const record = await runUnconfined({
        dir: temp('mewbo-acp-ctl-side-'),
        cwd: project,
        turns: [ownSteps(home, { host: local!.address, port: origin.port })],
        env: {
          PATH: process.env.PATH,
          HOME: home,
          MEWBO_HOME: home,
          ANTHROPIC_API_KEY: 'test-key',
        },
      });
      const [read, write, connect, env] = ownResults(readRecord(record));
      expect(read!.result).toContain(SECRET);
      expect(write!.result).toBe('written');
      expect(readFileSync(join(home, 'configs', 'app.json'), 'utf8')).toBe(PLANTED);
      expect(connect!.result).toBe('connected');
      expect(env!.result).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'MEWBO_HOME']));
    });

    it('hosted by the app, it can do none of it: the secrets unreadable, nothing written outside, no direct connection, only the variables its config names', async () => {
      origin = await startChildHttpOrigin(local!.address);
      w = await AcpWorld.start(
        { turns: [] },
        // The origin's port is not in sandbox.network.local_ports: nothing lets a direct connection through.
        { agent: { pass_env: ['ANTHROPIC_BASE_URL'], env: { AGENT_FLAG: '1' } } },
      );
      const config = readFileSync(join(w.h.home, 'configs', 'app.json'), 'utf8');
      writeFileSync(
        join(w.dir, 'script.json'),
        JSON.stringify({
          record: join(w.dir, 'record.jsonl'),
          turns: [ownSteps(w.h.home, { host: local!.address, port: origin.port })],
        }),
      );
      await w.turn(await w.session(), 'go');
      const [read, write, connect, env] = ownResults(w.record());
      expect(read!.error).toMatch(/EACCES/);
      expect(write!.error).toMatch(/EACCES/);
      expect(readFileSync(join(w.h.home, 'configs', 'app.json'), 'utf8')).toBe(config);
      expect(connect!.result).toMatch(/EACCES|EPERM/);
      expect(origin.seen).toEqual([]);
      const names = env!.result as string[];
      // What its config names (pass_env, env), and what the sandbox sets (the proxy's variables).
      expect(names).toEqual(expect.arrayContaining(['ANTHROPIC_BASE_URL', 'AGENT_FLAG']));
      expect(names).toEqual(expect.arrayContaining(['HTTP_PROXY', 'HTTPS_PROXY']));
      expect(names).not.toContain('ANTHROPIC_API_KEY');
      expect(names).not.toContain('MEWBO_HOME');
    });

    it('its network goes through its own egress proxy: a domain agents.NAME.network lists gets through, any other destination is refused there', async () => {
      origin = await startChildHttpOrigin(local!.address);
      w = await AcpWorld.start(
        {
          turns: [
            [
              { own: { fetch: `http://${local!.name}:${origin.port}/listed` } },
              { own: { fetch: `http://unlisted.test:${origin.port}/unlisted` } },
            ],
          ],
        },
        {
          config: { sandbox: { network: { local_ports: [origin.port] } } },
          agent: { network: [local!.name] },
        },
      );
      await w.turn(await w.session(), 'go');
      const [listed, unlisted] = ownResults(w.record());
      expect(listed!.result).toMatch(/^200 origin saw GET \/listed/);
      expect(unlisted!.result).toMatch(/^403 /);
      expect(unlisted!.result).toContain('agents.scripted.network');
      expect(origin.seen).toEqual(['/listed']);
    });
  },
);
