import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const readWhere = { toolCalls: [{ name: 'mcp__probe__read', args: { path: 'where.txt' } }] };

let remote: RemoteRun;
beforeAll(async () => {
  const serverJs = await buildMcpTestServer();
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'where.txt'), 'DESKTOP-SIDE-FILE\n');
  writeFileSync(join(project, '.mcp.json'), mcpJson('decoy', serverJs));
  writeFileSync(join(host.dir, 'where.txt'), 'HOST-SIDE-FILE\n');
  writeFileSync(join(host.dir, '.mcp.json'), mcpJson('probe', serverJs));
  remote = await startRemoteRun({
    hostView: { [project]: host.dir },
    config: { agent: { tool_search: 'off' } },
  });
}, 180_000);
afterAll(async () => {
  await remote?.stop();
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
});
