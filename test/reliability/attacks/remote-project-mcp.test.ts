import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { jsonLines } from '../../helpers/mewbo-cli';
import { startRemoteRun, type RemoteRun } from '../../helpers/remote-run';
import { tempDir } from '../../helpers/temp';

// Issue #29 part 3: a project on an SSH host whose `.mcp.json` names a server. The attack is a
// repository cloned on the host whose `.mcp.json` runs code as soon as a session opens there, or
// runs it on the desktop. A server starts only once the project is trusted, and then on the host,
// confined by its sandbox, from the host's file. The sshd shows its commands another folder at the
// project's path than the desktop sees there (hostView), so a file read or a server started on the
// wrong side says so. The control comes first: trusted, the same file starts its server on the
// host, so the untrusted case cannot pass because nothing could have started.

type Line = { type: string; name?: string; payload?: unknown };

const desktop = tempDir('mewbo-mcp-desktop-');
const host = tempDir('mewbo-mcp-host-');
const project = join(desktop.dir, 'proj');
/** Where the host's server notes each start (its folder on the host: the project's). */
const starts = join(host.dir, 'starts.log');

/** `.mcp.json` with one stdio server `name` that notes its start in the project, then serves. */
const mcpJson = (name: string, serverJs: string) =>
  JSON.stringify({
    mcpServers: {
      [name]: {
        command: '/bin/sh',
        args: ['-c', `echo started >> starts.log; exec '${process.execPath}' '${serverJs}'`],
      },
    },
  });
/**
 * A service of the desktop's own (on its loopback) that notes each request: what an HTTP server
 * named in a remote project's file must never reach, since its address is meant as the host's.
 */
let desktopService: Server;
const desktopHits: string[] = [];
const serviceUrl = () => `http://127.0.0.1:${(desktopService.address() as AddressInfo).port}/mcp`;
const httpMcpJson = () => ({ web: { type: 'http', url: serviceUrl() } });

/**
 * The host's file: `probe`, `web` (an HTTP server), and `where`, whose `cwd` exists only on the host and whose `env` would
 * stop the ssh channel on this computer (no PATH to find ssh on) if it were applied here.
 */
const hostMcpJson = (serverJs: string) =>
  JSON.stringify({
    mcpServers: {
      ...JSON.parse(mcpJson('probe', serverJs)).mcpServers,
      ...httpMcpJson(),
      where: {
        command: process.execPath,
        args: [serverJs],
        cwd: join(project, 'only-on-host'),
        env: { PATH: '/nowhere', PROJECT_MARK: 'from-the-host-file' },
      },
    },
  });
const readWhere = { toolCalls: [{ name: 'mcp__probe__read', args: { path: 'where.txt' } }] };

let remote: RemoteRun;
beforeAll(async () => {
  const serverJs = await buildMcpTestServer();
  desktopService = createServer((req, res) => {
    desktopHits.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => desktopService.listen(0, '127.0.0.1', r));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'where.txt'), 'DESKTOP-SIDE-FILE\n');
  writeFileSync(join(project, '.mcp.json'), mcpJson('decoy', serverJs));
  writeFileSync(join(host.dir, 'where.txt'), 'HOST-SIDE-FILE\n');
  writeFileSync(join(host.dir, '.mcp.json'), hostMcpJson(serverJs));
  mkdirSync(join(host.dir, 'only-on-host'));
  remote = await startRemoteRun({
    hostView: { [project]: host.dir },
    config: { agent: { tool_search: 'off' } },
  });
}, 180_000);
afterAll(async () => {
  await remote?.stop();
  desktopService?.close();
  desktop.cleanup();
  host.cleanup();
});

describe("a remote project's .mcp.json", () => {
  it('control: trusted, its server starts on the host and answers from the host files', async () => {
    const { fake } = remote;
    fake.script.push(readWhere, { text: 'Done.' });
    const first = fake.requests.length;
    const r = await remote.runOn(project, 'read it', ['--trust']);
    expect(r.code).toBe(0);
    expect(fake.requests[first]!.tools).toContain('mcp__probe__read');
    expect(fake.requests[first]!.tools).not.toContain('mcp__decoy__read');
    const result = jsonLines<Line>(r.stdout).find(
      (l) => l.type === 'tool_result' && l.name === 'mcp__probe__read',
    );
    expect(JSON.stringify(result?.payload)).toContain('HOST-SIDE-FILE');
    expect(readFileSync(starts, 'utf8')).toMatch(/^started\n/);
    expect(existsSync(join(project, 'starts.log'))).toBe(false);
  }, 180_000);

  it("trusted, a server runs in its cwd on the host, is told the host's folder as its root, gets its env there, and sees neither the desktop's $MEWBO_HOME nor the model key", async () => {
    const { fake, home, sshd } = remote;
    const desktopConfig = join(home, 'configs', 'app.json');
    // Control: the desktop's home is on this host's disk too (the same machine here), readable by
    // an unconfined process there.
    const unconfined = execFileSync(
      'ssh',
      ['-F', sshd.clientConfig, sshd.alias, 'cat', desktopConfig],
      {
        encoding: 'utf8',
      },
    );
    expect(unconfined).toContain('ssh_config');
    const call = (name: string, args: Record<string, unknown> = {}) => ({
      name: `mcp__where__${name}`,
      args,
    });
    fake.script.push(
      {
        toolCalls: [
          call('cwd'),
          call('roots'),
          call('env', { name: 'PROJECT_MARK' }),
          call('env', { name: 'ANTHROPIC_API_KEY' }),
          call('read', { path: desktopConfig }),
        ],
      },
      { text: 'Done.' },
    );
    const r = await remote.runOn(project, 'look around', ['--trust']);
    expect(r.code).toBe(0);
    const results = jsonLines<Line>(r.stdout)
      .filter((l) => l.type === 'tool_result' && l.name?.startsWith('mcp__where__'))
      .map((l) => JSON.stringify(l.payload));
    expect(results).toHaveLength(5);
    const [cwd, roots, mark, key, read] = results;
    expect(cwd).toContain(join(project, 'only-on-host'));
    expect(roots).toContain(
      JSON.stringify(JSON.stringify([{ uri: `file://${project}`, name: 'proj' }])).slice(1, -1),
    );
    expect(roots).not.toContain('remote-projects');
    expect(mark).toContain('from-the-host-file');
    expect(key).toContain('(unset)');
    expect(key).not.toContain('test-key');
    expect(read).toContain('READ EACCES');
  }, 180_000);

  it('untrusted, starts nothing, on the host or here', async () => {
    const { fake } = remote;
    rmSync(starts, { force: true });
    fake.script.push(readWhere, { text: 'Done.' });
    const first = fake.requests.length;
    const r = await remote.runOn(project, 'read it');
    expect(r.code).toBe(0);
    expect(fake.requests[first]!.tools.filter((t) => t.startsWith('mcp__'))).toEqual([]);
    const result = jsonLines<Line>(r.stdout).find((l) => l.type === 'tool_result');
    expect(JSON.stringify(result?.payload)).not.toContain('SIDE-FILE');
    expect(existsSync(starts)).toBe(false);
    expect(existsSync(join(project, 'starts.log'))).toBe(false);
  }, 180_000);

  it("trusted, an HTTP server it names is never connected from the desktop: control, the same entry in a local project's file is", async () => {
    const { fake } = remote;
    const local = join(desktop.dir, 'local-proj');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, '.mcp.json'), JSON.stringify({ mcpServers: httpMcpJson() }));
    desktopHits.length = 0;
    fake.script.push({ text: 'Done.' });
    const here = await remote.mewbo([
      'run',
      '--project',
      local,
      '--permission-mode',
      'auto',
      '--trust',
      'hello',
    ]);
    expect(here.code).toBe(0);
    expect(desktopHits.length).toBeGreaterThan(0);

    desktopHits.length = 0;
    fake.script.push(readWhere, { text: 'Done.' });
    const first = fake.requests.length;
    const r = await remote.runOn(project, 'read it', ['--trust']);
    expect(r.code).toBe(0);
    // The host's other servers start as before; the HTTP one is left out, and nothing reached
    // the desktop's service.
    expect(fake.requests[first]!.tools).toContain('mcp__probe__read');
    expect(fake.requests[first]!.tools.filter((t) => t.startsWith('mcp__web__'))).toEqual([]);
    expect(desktopHits).toEqual([]);
  }, 180_000);
});
