import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Harness, ofType } from '../agent/harness';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { tempDir } from '../../helpers/temp';

// switch_project inside a real run: a scripted model over the Anthropic wire lists projects,
// switches, and reads a file by a relative path that now resolves in the other project.
let serverJs: string;
let h: Harness | undefined;
let other: { dir: string; cleanup: () => void } | undefined;
beforeAll(async () => {
  serverJs = await buildMcpTestServer();
});
afterEach(async () => {
  await h?.close();
  other?.cleanup();
  h = undefined;
});

const mcpJson = (server: string) =>
  JSON.stringify({ mcpServers: { [server]: { command: process.execPath, args: [serverJs] } } });

describe('switch_project in a run', () => {
  it('moves the run to the other project, loads its AGENTS.md, and offers no new MCP tools', async () => {
    h = await Harness.start({
      files: { '.mcp.json': mcpJson('alpha') },
      config: { permission_mode: 'auto', agent: { tool_search: 'off' } },
    });
    // The session's own project is trusted, so its .mcp.json server runs (workspace trust).
    await h.invoke('trust.grant', { path: h.project });
    other = tempDir('mewbo-other-proj-');
    const otherDir = realpathSync(other.dir);
    writeFileSync(join(otherDir, 'notes.txt'), 'notes of the other project\n');
    writeFileSync(join(otherDir, 'AGENTS.md'), 'Other project rule: be brief.\n');
    writeFileSync(join(otherDir, '.mcp.json'), mcpJson('beta'));
    const { project } = await h.invoke('projects.openFolder', { path: otherDir });

    h.script.push(
      { toolCalls: [{ name: 'list_projects', args: {} }] },
      { toolCalls: [{ name: 'switch_project', args: { project: project.key } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
      { text: 'Read it.' },
    );
    const id = await h.newSession();
    const from = await h.send(id, 'Read notes.txt in the other project.');
    const events = await h.waitRunEnd(id, from);

    const [listed, switched, read] = ofType(events, 'tool_result');
    expect(
      (listed!.payload as unknown as { projects: { key: string }[] }).projects.map((p) => p.key),
    ).toEqual(['proj', project.key]);
    expect(switched!.payload).toMatchObject({
      kind: 'project_switch',
      from: 'proj',
      to: project.key,
      root: otherDir,
    });
    expect(read!.payload.kind).toBe('file');
    expect(JSON.stringify(read!.payload)).toContain('notes of the other project');
    expect(ofType(events, 'project_switch')).toEqual([
      expect.objectContaining({ from: 'proj', to: project.key, root: otherDir }),
    ]);
    expect((await h.invoke('sessions.list', {})).sessions.find((s) => s.id === id)).toMatchObject({
      project: project.key,
      root: otherDir,
    });

    const [first, , afterSwitch] = h.script.requests;
    expect(first!.tools).toEqual(
      expect.arrayContaining(['list_projects', 'switch_project', 'mcp__alpha__echo']),
    );
    expect(afterSwitch!.tools).toContain('read_file');
    expect(afterSwitch!.tools.some((t) => t.startsWith('mcp__'))).toBe(false);
    expect(afterSwitch!.transcript + afterSwitch!.system).toContain(
      'Other project rule: be brief.',
    );
    expect((await h.invoke('mcp.servers', {})).servers.map((s) => s.name)).not.toContain('beta');
  });
});
