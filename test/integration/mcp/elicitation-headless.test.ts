import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// `mewbo run` has no window to ask in: a server's elicitation is declined, and stderr says which
// server asked what. The built CLI, a real test MCP server from configs/app.json, a fake model
// that calls the server's `elicit` tool.

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;
let serverJs: string;

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
  home = tempDir('mewbo-elicit-run-');
  project = tempDir('mewbo-elicit-proj-');
  mkdirSync(join(home.dir, 'configs'), { recursive: true });
  writeFileSync(
    join(home.dir, 'configs', 'app.json'),
    JSON.stringify({ mcpServers: { billing: { command: process.execPath, args: [serverJs] } } }),
  );
  fake = await FakeAnthropic.start();
});
afterAll(async () => {
  await fake.close();
  home.cleanup();
  project.cleanup();
});

describe('elicitation in a headless run', () => {
  it("declines the server's form and says so on stderr, naming the server and its message", async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { card: { type: 'string', title: 'Card number' } },
      required: ['card'],
    });
    fake.script.push(
      {
        toolCalls: [
          {
            name: 'mcp__billing__elicit',
            args: { message: 'Which card should we charge?', schema },
          },
        ],
      },
      { text: 'The server was told no.' },
    );
    const r = await runMewbo(
      ['run', '--project', project.dir, '--permission-mode', 'auto', 'charge the order'],
      {
        env: { MEWBO_HOME: home.dir, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
        timeoutMs: 60_000,
      },
    );
    expect(r.code).toBe(0);
    const declined = r.stderr.split('\n').filter((l) => l.includes("MCP server 'billing' asked"));
    expect(declined).toEqual([
      "mewbo run: MCP server 'billing' asked: “Which card should we charge?”; declined: no one can answer here (a run without a window to ask in)",
    ]);
    const result = jsonLines<{ type: string; payload?: { text?: string } }>(r.stdout).find(
      (e) => e.type === 'tool_result',
    );
    expect(JSON.parse(result!.payload!.text!)).toEqual({ action: 'decline' });
  });
});
