import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../shared/protocol/events';
import type { Client } from '../../../renderer/src/transport/transport';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import type { RecordedRequest } from '../../helpers/fake-model-script';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import { ofType } from '../agent/harness';

// Issue 30, How it is proved: the real Claude Code, through Zed's ACP adapter
// (@zed-industries/claude-code-acp, which brings Claude Code itself as
// @anthropic-ai/claude-agent-sdk's cli.js), hosted in a session of the app against the scripted
// Anthropic Messages server (ANTHROPIC_BASE_URL), the app as `mewbo serve` in a process of its own. The model's reply is a tool_use of the
// adapter's mcp__acp__Edit, which the adapter carries out through the client's fs
// (fs/read_text_file, fs/write_text_file) after asking session/request_permission: the request is
// the session's approval card with Claude Code's options, and the edit lands in the project.
//
// Neither package is a dependency of the app: the test's setup installs a pinned version from the
// npm registry into a cache dir outside the repository (the confined agent may not read the
// app's own install) and reuses it on the next run. The first install downloads about 60 MB, so
// the setup may take minutes on a slow link; CI has registry access.

const ADAPTER = '@zed-industries/claude-code-acp@0.16.2';
const CACHE = join(
  process.env.MEWBO_TEST_CACHE ?? join(homedir(), '.cache', 'mewbo-tests'),
  'claude-code-acp-0.16.2',
);
const ENTRY = join(CACHE, 'node_modules', '@zed-industries', 'claude-code-acp', 'dist', 'index.js');
/** How long the setup may take to install the adapter and Claude Code from the registry. */
const INSTALL_TIMEOUT_MS = 600_000;
/** Claude Code starts a second node process (its cli.js) and talks to the model: a turn is slow. */
const TURN_TIMEOUT_MS = 180_000;

/** How often the session's log is read while the test waits on the host. */
const POLL_MS = 200;

const ORIGINAL = 'export const greeting = "hello";\n';

let host: HostProcess | undefined;
let fake: FakeAnthropic | undefined;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  if (existsSync(ENTRY)) return;
  mkdirSync(CACHE, { recursive: true });
  await promisify(execFile)(
    'npm',
    ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--no-save', ADAPTER],
    { timeout: INSTALL_TIMEOUT_MS },
  );
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await host?.stop();
  await fake?.close();
  for (const c of cleanups.splice(0)) c();
});

function temp(prefix: string): string {
  const t = tempDir(prefix);
  cleanups.push(t.cleanup);
  return t.dir;
}

/** Polls the session's log until `pred` holds (the host runs in a process of its own). */
async function waitForEvents(
  client: Client,
  id: string,
  pred: (events: SessionEvent[]) => boolean,
  what: string,
): Promise<SessionEvent[]> {
  for (let waited = 0; ; waited += POLL_MS) {
    const { events } = await client.invoke('sessions.open', { id, limit: 10_000 });
    if (pred(events)) return events;
    if (waited > TURN_TIMEOUT_MS)
      throw new Error(
        `timed out waiting for ${what}; events: ${events.map((e) => e.type).join(',')}`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

const offers = (req: RecordedRequest, tool: string) => req.tools.includes(tool);
const answered = (req: RecordedRequest) => req.transcript.includes('tool_result');

describe('Claude Code through @zed-industries/claude-code-acp', () => {
  it(
    'edits a file through the client’s fs, its permission request shown as the session’s approval card',
    async () => {
      // The scripted server runs in this process, the app in its own: a confined process never
      // reaches the app's own listeners, and the user lists this local port for it.
      fake = await FakeAnthropic.start();
      const home = temp('mewbo-claude-home-');
      const project = temp('mewbo-claude-proj-');
      // Claude Code keeps its settings and sessions in its config dir: a writable one of its own.
      const claudeConfig = temp('mewbo-claude-config-');
      const file = join(project, 'greet.ts');
      writeFileSync(file, ORIGINAL);
      mkdirSync(join(home, 'configs'), { recursive: true });
      writeFileSync(
        join(home, 'configs', 'app.json'),
        JSON.stringify({
          projects: { proj: { path: project } },
          sandbox: { network: { local_ports: [Number(new URL(fake.url).port)] } },
          agents: {
            claude: {
              command: process.execPath,
              args: [ENTRY],
              env: {
                ANTHROPIC_BASE_URL: fake.url,
                ANTHROPIC_API_KEY: 'test-key',
                HOME: claudeConfig,
                CLAUDE_CONFIG_DIR: claudeConfig,
                DISABLE_TELEMETRY: '1',
                DISABLE_AUTOUPDATER: '1',
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
              },
            },
          },
        }),
      );
      // Claude Code's main turn streams with its tools: the first gets the edit as a tool_use of the
      // adapter's mcp__acp__Edit, the one carrying its result the closing text; what it asks on the
      // side (no stream: a title, a topic check) gets plain text.
      const reply = (req: RecordedRequest) =>
        req.body.stream !== true
          ? { text: 'Greeting' }
          : offers(req, 'mcp__acp__Edit') && !answered(req)
            ? {
                toolCalls: [
                  {
                    name: 'mcp__acp__Edit',
                    args: { file_path: file, old_string: '"hello"', new_string: '"goodbye"' },
                  },
                ],
              }
            : { text: 'Changed the greeting.' };
      for (let i = 0; i < 20; i++) fake.script.push(reply);
      host = await startHost(home);
      const { client, close } = host.connect();
      cleanups.push(close);
      const { session } = await client.invoke('sessions.create', {
        project: 'proj',
        agent: 'claude',
      });
      const id = session.id;
      await client.invoke('sessions.send', {
        id,
        text: 'Change the greeting to goodbye.',
        capabilities: ['approvals'],
      });
      const waiting = await waitForEvents(
        client,
        id,
        (es) =>
          es.some(
            (e) =>
              e.type === 'approval_request' || (e.type === 'run_state' && e.state === 'failed'),
          ),
        'Claude Code’s permission request',
      );
      const request = ofType(waiting, 'approval_request')[0];
      expect(request, JSON.stringify(ofType(waiting, 'error'))).toBeDefined();
      expect(request!.options!.map((o) => o.kind)).toEqual([
        'allow_always',
        'allow_once',
        'reject_once',
      ]);
      expect(request!.summary).toContain('greet.ts');
      expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
      await client.invoke('agent.decideApproval', {
        id,
        approval_id: request!.approval_id,
        decision: 'allow',
      });
      const events = await waitForEvents(
        client,
        id,
        (es) => es.some((e) => e.type === 'run_state' && ['idle', 'failed'].includes(e.state)),
        'the turn to end',
      );
      expect(readFileSync(file, 'utf8')).toBe('export const greeting = "goodbye";\n');
      // One card: the user's allow of Claude Code's request carried out its write through the client.
      expect(ofType(events, 'approval_request')).toHaveLength(1);
      expect(ofType(events, 'approval_decision')[0]).toMatchObject({
        decision: 'allow',
        option: 'allow',
      });
      expect(ofType(events, 'tool_result')[0]!.payload).toMatchObject({ kind: 'diff' });
      expect(
        ofType(events, 'assistant_message')
          .map((m) => m.text)
          .join(''),
      ).toContain('Changed the greeting.');
      expect(ofType(events, 'run_state').at(-1)!.state).toBe('idle');
      expect(fake.requests.some((r) => offers(r, 'mcp__acp__Edit'))).toBe(true);
    },
    TURN_TIMEOUT_MS * 3,
  );
});
