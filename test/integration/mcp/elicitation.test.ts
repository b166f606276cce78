import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import type { McpServerConfig } from '../../../electron/host/config/schema';
import type {
  ElicitationAnswer,
  ElicitationAsker,
  ElicitationRequest,
} from '../../../electron/host/mcp/elicitation';
import { headlessSignIn } from '../../../electron/host/mcp/sign-in-policy';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { FAST_LIMITS, byName, sessionRef, toolContext } from './harness';

// The app's MCP client answering elicitation/create from a real server process (the test server's
// `elicit` tool calls elicitInput from inside the call): the form reaches whoever asks for that
// call, normalized; the answer goes back to the server; a schema that is not the spec's flat one
// is refused with the reason and logged on the server's row, and no one is asked; with no one to
// ask the request is declined and said where the user looks.

let serverJs: string;
const managers: McpManager[] = [];
const notices: string[] = [];

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
});
afterAll(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
});

async function elicitTool() {
  const config: McpServerConfig = {
    command: process.execPath,
    args: [serverJs],
    env: {},
    disabled: false,
  };
  const m = new McpManager({
    appServers: { testsrv: config },
    limits: FAST_LIMITS,
    signIn: headlessSignIn(null, (line) => notices.push(line)),
  });
  managers.push(m);
  const tools = await m.toolsForRun(sessionRef(), null);
  const status = async () => (await m.servers()).find((s) => s.name === 'testsrv')!;
  return { tool: byName(tools, 'mcp__testsrv__elicit')!, status };
}

/** An asker that records what it is asked and answers `answer`. */
function asker(answer: ElicitationAnswer) {
  const asked: ElicitationRequest[] = [];
  const a: ElicitationAsker = {
    ask: async (request) => {
      asked.push(request);
      return answer;
    },
  };
  return { asked, asker: a };
}

async function elicit(
  tool: Awaited<ReturnType<typeof elicitTool>>['tool'],
  args: { message: string; schema?: unknown; url?: string },
  who?: ElicitationAsker,
): Promise<string> {
  const ctx = { ...toolContext(), callId: 'call_1', services: who ? { elicitation: who } : {} };
  const payload = await tool.run(ctx, {
    message: args.message,
    ...(args.schema !== undefined ? { schema: JSON.stringify(args.schema) } : {}),
    ...(args.url ? { url: args.url } : {}),
  });
  return (payload as unknown as { text: string }).text;
}

const CONTACT = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email', default: 'me@example.com' },
    seats: { type: 'integer', minimum: 1, maximum: 10, default: 2 },
    plan: { type: 'string', enum: ['free', 'pro'], enumNames: ['Free', 'Pro'] },
    region: {
      type: 'string',
      oneOf: [
        { const: 'eu', title: 'Europe' },
        { const: 'us', title: 'United States' },
      ],
      default: 'eu',
    },
    newsletter: { type: 'boolean', default: false },
    start: { type: 'string', format: 'date', description: 'First day' },
  },
  required: ['email', 'plan'],
};

describe('MCP elicitation (client side)', () => {
  it('asks for the call with the form normalized, and answers the server with the accepted content', async () => {
    const { tool } = await elicitTool();
    const content = { email: 'ann@example.com', seats: 3, plan: 'pro', newsletter: true };
    const { asked, asker: a } = asker({ action: 'accept', content });
    const answer = await elicit(tool, { message: 'Who should we bill?', schema: CONTACT }, a);
    expect(JSON.parse(answer)).toEqual({ action: 'accept', content });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      server: 'testsrv',
      callId: 'call_1',
      mode: 'form',
      message: 'Who should we bill?',
    });
    const fields = (asked[0] as Extract<ElicitationRequest, { mode: 'form' }>).form.fields;
    expect(fields).toEqual([
      {
        kind: 'text',
        name: 'email',
        title: 'Email',
        required: true,
        format: 'email',
        default: 'me@example.com',
      },
      {
        kind: 'number',
        name: 'seats',
        title: 'seats',
        required: false,
        integer: true,
        minimum: 1,
        maximum: 10,
        default: 2,
      },
      {
        kind: 'choice',
        name: 'plan',
        title: 'plan',
        required: true,
        options: [
          { value: 'free', label: 'Free' },
          { value: 'pro', label: 'Pro' },
        ],
      },
      {
        kind: 'choice',
        name: 'region',
        title: 'region',
        required: false,
        options: [
          { value: 'eu', label: 'Europe' },
          { value: 'us', label: 'United States' },
        ],
        default: 'eu',
      },
      { kind: 'boolean', name: 'newsletter', title: 'newsletter', required: false, default: false },
      {
        kind: 'text',
        name: 'start',
        title: 'start',
        description: 'First day',
        required: false,
        format: 'date',
      },
    ]);
  });

  it('passes decline and cancel back to the server as they were given', async () => {
    const { tool } = await elicitTool();
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    for (const action of ['decline', 'cancel'] as const) {
      const answer = await elicit(tool, { message: 'Go on?', schema }, asker({ action }).asker);
      expect(JSON.parse(answer)).toEqual({ action });
    }
  });

  it.each([
    [
      'a nested object',
      { address: { type: 'object', properties: { city: { type: 'string' } } } },
      `field 'address' uses "properties": a form is flat`,
    ],
    ['an unknown format', { site: { type: 'string', format: 'ipv4' } }, `has format "ipv4"`],
    [
      'a default outside its bounds',
      { n: { type: 'number', minimum: 1, maximum: 5, default: 9 } },
      'has a default that does not fit it: must be 5 or less',
    ],
    [
      'enumNames that do not match',
      { c: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } },
      'has "enumNames" that do not match its "enum" one for one',
    ],
  ])(
    'refuses a form with %s: the server gets the reason, the row logs it, nobody is asked',
    async (_what, properties, reason) => {
      const { tool, status } = await elicitTool();
      const { asked, asker: a } = asker({ action: 'accept', content: {} });
      const answer = await elicit(
        tool,
        { message: 'Fill this', schema: { type: 'object', properties } },
        a,
      );
      expect(answer).toMatch(/^ERROR -32602 /);
      expect(answer).toContain(reason);
      expect(asked).toEqual([]);
      const log = (await status()).log_tail;
      expect(log.some((l) => l.startsWith('elicitation refused:') && l.includes(reason))).toBe(
        true,
      );
    },
  );

  it('declines when no one can be asked, with a line naming the server and its message', async () => {
    const { tool, status } = await elicitTool();
    notices.length = 0;
    const schema = { type: 'object', properties: { token: { type: 'string' } } };
    const answer = await elicit(tool, { message: 'Paste your API token', schema });
    expect(JSON.parse(answer)).toEqual({ action: 'decline' });
    expect(notices.at(-1)).toBe(
      "MCP server 'testsrv' asked: “Paste your API token”; declined: no one can answer here (a run without a window to ask in)",
    );
    expect((await status()).log_tail).toContain(
      'elicitation declined: no one can answer here (a run without a window to ask in)',
    );
  });

  it('refuses a URL-mode page that is neither https nor on this machine', async () => {
    const { tool, status } = await elicitTool();
    const { asked, asker: a } = asker({ action: 'accept' });
    const answer = await elicit(tool, { message: 'Sign the form', url: 'http://example.com/x' }, a);
    expect(answer).toMatch(/^ERROR -32602 .*"url" must be an https page/);
    expect(asked).toEqual([]);
    expect((await status()).log_tail.at(-1)).toMatch(/^elicitation refused: "url" must be/);
  });

  it('asks a URL-mode page with its address, and answers the server with the choice', async () => {
    const { tool } = await elicitTool();
    const { asked, asker: a } = asker({ action: 'decline' });
    const url = 'https://pay.example.com/checkout?id=7';
    const answer = await elicit(tool, { message: 'Pay on the page', url }, a);
    expect(JSON.parse(answer)).toEqual({ action: 'decline' });
    expect(asked[0]).toMatchObject({ mode: 'url', url, server: 'testsrv' });
  });
});
