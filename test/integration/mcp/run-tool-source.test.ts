import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import { createRunToolSource } from '../../../electron/host/mcp/run-tool-source';
import { listProjectsTool } from '../../../electron/host/tools/list-projects';
import { switchProjectTool } from '../../../electron/host/tools/switch-project';
import type { Session } from '../../../electron/host/sessions/session';
import type { AnyTool, ToolContext } from '../../../electron/host/tools/tool';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { tempDir } from '../../helpers/temp';

let serverJs: string;
let tmp: { dir: string; cleanup: () => void };
let home: string;
let host: Host;
let a: string;
let b: string;
const builtins: AnyTool[] = [listProjectsTool, switchProjectTool];
const names = (tools: AnyTool[]) => tools.map((t) => t.name);
const source = () =>
  createRunToolSource({
    mcp: host.mcp,
    builtins,
    agentConfig: host.config.agent,
    projectRoot: (s) => s.meta.root,
  });
const ctx = (session: Session, agentId = 'root'): ToolContext => ({
  root: session.meta.root!,
  sessionId: session.id,
  agentId,
  signal: new AbortController().signal,
  config: host.config,
  services: { projects: host.projectTools },
  emit: async () => {},
});

function project(name: string, server: string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { [server]: { command: process.execPath, args: [serverJs] } } }),
  );
  return realpathSync(dir);
}

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
});
beforeEach(async () => {
  tmp = tempDir('mewbo-run-tools-');
  tmp.dir = realpathSync(tmp.dir);
  a = project('a', 'alpha');
  b = project('b', 'beta');
  home = join(tmp.dir, 'home');
  mkdirSync(join(home, 'configs'), { recursive: true });
  writeFileSync(
    join(home, 'configs', 'app.json'),
    JSON.stringify({
      agent: { tool_search: 'on' },
      projects: { a: { path: a }, b: { path: b } },
      mcpServers: { common: { command: process.execPath, args: [serverJs] } },
    }),
  );
  host = await Host.create({ env: { ...process.env, MEWBO_HOME: home } });
  // Both projects trusted with their .mcp.json: their servers may run (workspace trust).
  await host.trust.trust(a);
  await host.trust.trust(b);
});
afterEach(async () => {
  await host.dispose();
  tmp.cleanup();
});

describe('the tools of a run across switch_project', () => {
  it('are narrowed to what the run started with: the new project’s .mcp.json is not admitted, the old one’s drop out', async () => {
    const session = await host.sessions.create({ project: 'a', root: a });
    const run = source();
    const start = await run.candidates({ session, agent: { id: 'root' }, root: a });
    expect(names(start)).toEqual(
      expect.arrayContaining([
        'list_projects',
        'switch_project',
        'mcp__alpha__echo',
        'mcp__common__echo',
      ]),
    );

    expect(await switchProjectTool.run(ctx(session), { project: 'b' })).toMatchObject({
      kind: 'project_switch',
      root: b,
    });
    const inB = await run.candidates({ session, agent: { id: 'root' }, root: b });
    expect(names(inB)).toEqual(expect.arrayContaining(['switch_project', 'mcp__common__echo']));
    expect(
      names(inB).some((n) => n.startsWith('mcp__alpha__') || n.startsWith('mcp__beta__')),
    ).toBe(false);
    expect(names(inB).every((n) => names(start).includes(n))).toBe(true);
    expect((await host.mcp.servers()).map((s) => s.name)).not.toContain('beta');

    // A sub-agent started after the switch works in the new directory with no more than the run had.
    const sub = await run.candidates({ session, agent: { id: 'sub_1' }, root: b });
    expect(names(sub)).toEqual(names(inB));

    expect(await switchProjectTool.run(ctx(session), { project: 'a' })).toMatchObject({ root: a });
    expect(
      new Set(names(await run.candidates({ session, agent: { id: 'root' }, root: a }))),
    ).toEqual(new Set(names(start)));
  });

  it('are resolved normally for the next run in the new project', async () => {
    const session = await host.sessions.create({ project: 'a', root: a });
    await source().candidates({ session, agent: { id: 'root' }, root: a });
    await switchProjectTool.run(ctx(session), { project: 'b' });
    const next = await source().candidates({ session, agent: { id: 'root' }, root: b });
    expect(names(next)).toEqual(expect.arrayContaining(['mcp__beta__echo', 'mcp__common__echo']));
    expect(names(next).some((n) => n.startsWith('mcp__alpha__'))).toBe(false);
  });
});

describe('deferral over a run’s tools', () => {
  it('binds only tool_search at first, then the fetched schemas, also after compaction and a restart', async () => {
    const session = await host.sessions.create({ project: 'a', root: a });
    const run = source();
    const granted = await run.candidates({ session, agent: { id: 'root' }, root: a });
    const first = run.defer(granted, {
      session,
      agent: { id: 'root' },
      root: a,
      contextWindow: 200_000,
    });
    expect(names(first.bound)).toEqual(['list_projects', 'switch_project', 'tool_search']);
    expect(first.deferredNames).toEqual(
      expect.arrayContaining(['mcp__alpha__echo', 'mcp__common__add']),
    );

    const search = first.bound.find((t) => t.name === 'tool_search')!;
    const payload = await search.run(ctx(session), { query: 'select:mcp__common__echo' });
    await session.append({
      type: 'tool_call',
      call_id: 'c1',
      agent_id: 'root',
      name: 'tool_search',
      args: { query: 'select:mcp__common__echo' },
    });
    await session.append({
      type: 'tool_result',
      call_id: 'c1',
      agent_id: 'root',
      name: 'tool_search',
      payload,
    });
    const second = run.defer(granted, {
      session,
      agent: { id: 'root' },
      root: a,
      contextWindow: 200_000,
    });
    expect(names(second.bound)).toEqual([
      'list_projects',
      'switch_project',
      'mcp__common__echo',
      'tool_search',
    ]);
    // A sub-agent's discoveries are its own.
    expect(
      names(
        run.defer(granted, { session, agent: { id: 'sub_1' }, root: a, contextWindow: 200_000 })
          .bound,
      ),
    ).not.toContain('mcp__common__echo');

    await session.append({
      type: 'compaction',
      agent_id: 'root',
      summary: 'earlier work',
      upto_seq: session.length - 1,
    });
    const id = session.id;
    await host.dispose();
    host = await Host.create({ env: { ...process.env, MEWBO_HOME: home } });
    const reopened = await host.sessions.get(id);
    const again = source();
    const regranted = await again.candidates({ session: reopened, agent: { id: 'root' }, root: a });
    expect(
      names(
        again.defer(regranted, {
          session: reopened,
          agent: { id: 'root' },
          root: a,
          contextWindow: 200_000,
        }).bound,
      ),
    ).toContain('mcp__common__echo');
  });
});
