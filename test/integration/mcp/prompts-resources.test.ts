import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, ofType } from '../agent/harness';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { MENTION_MAX_BYTES } from '../../../electron/host/sessions/constants';
import { waitFor } from './harness';

// A connected MCP server's prompts are `/server:prompt` commands and its resources `@server:uri`
// mentions, through the protocol a client uses (commands.list, files.search, sessions.send), with
// the test server (test/helpers/mcp-test-server.ts) as a real process named `srv`.

let serverJs: string;
let h: Harness;
let id: string;

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
  h = await Harness.start({
    config: { mcpServers: { srv: { command: process.execPath, args: [serverJs] } } },
  });
  id = await h.newSession();
  // The app's servers start in the background when the host does.
  await waitFor('srv to connect', async () =>
    (await h.invoke('commands.list', { id })).commands.length ? true : undefined,
  );
});
afterAll(() => h?.close());

const userMessages = async () => ofType(await h.events(id), 'user_message');

describe('MCP prompts as / commands', () => {
  it("lists the server's prompts as server:prompt with their arguments as the hint", async () => {
    const { commands } = await h.invoke('commands.list', { id });
    expect(commands.filter((c) => c.kind === 'prompt')).toEqual([
      {
        name: 'srv:review',
        description: 'Review the current change',
        kind: 'prompt',
        scope: 'user',
        file: 'srv',
      },
      {
        name: 'srv:greet',
        description: 'Greets someone',
        argument_hint: '<name> [tone]',
        kind: 'prompt',
        scope: 'user',
        file: 'srv',
      },
    ]);
  });

  it("sends prompts/get's messages, the typed words as its arguments, to the model", async () => {
    h.script.push({ text: 'Hello, Ada!' });
    const events = await h.waitRunEnd(id, await h.send(id, '/srv:greet Ada "very cheerful"'));
    expect(ofType(events, 'command_expanded')[0]).toMatchObject({
      name: 'srv:greet',
      kind: 'prompt',
      text: '[user]\nGreet Ada in a very cheerful tone.\n\n[assistant]\nGreeting coming up.',
    });
    expect(h.script.requests.at(-1)!.transcript).toContain('Greet Ada in a very cheerful tone.');
  });

  it('refuses a prompt without its required argument, naming it, and sends nothing', async () => {
    const before = (await userMessages()).length;
    const error = await h.invokeError('sessions.send', {
      id,
      text: '/srv:greet',
      capabilities: [],
    });
    expect(error).toMatchObject({
      code: 'mcp_prompt_arguments',
      message: '/srv:greet needs <name>: type it after the name (/srv:greet <name> [tone])',
    });
    expect((await userMessages()).length).toBe(before);
  });
});

describe('MCP resources attached with @', () => {
  it("lists the server's resources in the @ search", async () => {
    const found = await h.invoke('files.search', { id, query: 'readme', limit: 10 });
    expect(found.resources).toEqual([
      {
        ref: 'srv:test://readme',
        name: 'readme',
        server: 'srv',
        description: 'The project readme',
      },
    ]);
  });

  it('reads a mentioned resource with resources/read and sends it with the message', async () => {
    h.script.push({ text: 'Read it.' });
    await h.waitRunEnd(id, await h.send(id, 'Summarize @srv:test://readme.'));
    const sent = (await userMessages()).at(-1)!;
    expect(sent.mentions).toEqual([{ path: 'srv:test://readme', text: 'hello from the readme' }]);
    expect(h.script.requests.at(-1)!.transcript).toContain('hello from the readme');
  });

  it('cuts a resource longer than a file may be at the same limit, and says so', async () => {
    h.script.push({ text: 'Long.' });
    await h.waitRunEnd(id, await h.send(id, 'Look at @srv:test://big'));
    const [mention] = (await userMessages()).at(-1)!.mentions!;
    expect(mention!.path).toBe('srv:test://big');
    expect(mention!.text.length).toBe(MENTION_MAX_BYTES);
    expect(mention!.text.startsWith('BIGHEAD')).toBe(true);
    expect(mention!.note).toBe(
      `only the first ${MENTION_MAX_BYTES} of ${150_014} bytes are attached`,
    );
  });

  it('leaves a mention naming no resource as plain text', async () => {
    h.script.push({ text: 'Ok.' });
    await h.waitRunEnd(id, await h.send(id, 'Mail @srv:test://nothing or @other:x'));
    expect((await userMessages()).at(-1)!.mentions).toBeUndefined();
  });
});
