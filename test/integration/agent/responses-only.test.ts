import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../helpers/fake-openai';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// An OpenAI-compatible server that serves a model only on the Responses API answers Chat
// Completions with OpenAI's own 404 ("This model is only supported in v1/responses and not in
// v1/chat/completions."), as Azure OpenAI and proxies pass it on (issue #26 part 5). Through
// `mewbo run`, against a fake that answers exactly that and speaks Responses.

type Line = { type: string; seq?: number; [field: string]: unknown };

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let fake: FakeOpenAi;
beforeEach(async () => {
  home = tempDir('mewbo-responses-home-');
  project = tempDir('mewbo-responses-proj-');
  writeFileSync(join(project.dir, 'a.txt'), 'alpha\n');
  fake = await FakeOpenAi.start({ apiKey: 'sk-test', responsesOnly: ['deep-model'] });
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
  project.cleanup();
});

async function run(model: string, server = fake) {
  const r = await runMewbo(
    ['run', '--project', project.dir, '--model', `openai:${model}`, 'read a.txt'],
    { env: { MEWBO_HOME: home.dir, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl } },
  );
  return { code: r.code, events: jsonLines<Line>(r.stdout), stderr: r.stderr };
}

const notices = (events: Line[]) => events.filter((e) => e.type === 'notice');
const paths = (server: FakeOpenAi) => server.requests.map((r) => r.path);

describe('a model served only on the Responses API', () => {
  it('is switched to Responses mid-run, remembered for its server, and the session is told once', async () => {
    fake.script.push(
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'It says alpha.' },
    );
    const first = await run('deep-model');
    expect(first.code).toBe(0);
    expect(fake.chatRefusals).toEqual(['deep-model']);
    // The refused call went to Responses, and so did the rest of the run.
    expect(paths(fake)).toEqual(['/v1/responses', '/v1/responses']);
    expect(first.events.filter((e) => e.type === 'tool_result')[0]).toMatchObject({
      payload: expect.objectContaining({ kind: 'file' }),
    });
    expect(first.events.filter((e) => e.type === 'assistant_message').at(-1)).toMatchObject({
      text: 'It says alpha.',
    });
    expect(notices(first.events)).toEqual([
      expect.objectContaining({
        code: 'responses_api',
        message: expect.stringMatching(
          /^deep-model at http:\/\/127\.0\.0\.1:\d+\/v1 answers only on the Responses API/,
        ),
      }),
    ]);
    expect(first.events.filter((e) => e.type === 'error')).toEqual([]);
    // Remembered in the app's state, not in the user's settings.
    const learned = JSON.parse(
      readFileSync(join(home.dir, 'state', 'openai-responses-only.json'), 'utf8'),
    );
    expect(learned).toEqual({ models: [{ base_url: fake.baseUrl, model: 'deep-model' }] });
    expect(existsSync(join(home.dir, 'configs', 'app.json'))).toBe(false);

    // The next run starts on Responses: no refusal, no second notice.
    fake.script.push({ text: 'Again alpha.' });
    const second = await run('deep-model');
    expect(second.code).toBe(0);
    expect(fake.chatRefusals).toHaveLength(1);
    expect(paths(fake).at(-1)).toBe('/v1/responses');
    expect(notices(second.events)).toEqual([]);
  });

  it('stays on Chat Completions for another model, and on another server for the same name', async () => {
    fake.script.push({ text: 'first' });
    expect((await run('deep-model')).code).toBe(0);

    fake.script.push({ text: 'plain' });
    const plain = await run('gpt-4.1');
    expect(plain.code).toBe(0);
    expect(paths(fake).at(-1)).toBe('/v1/chat/completions');

    const other = await FakeOpenAi.start({ apiKey: 'sk-test' });
    try {
      other.script.push({ text: 'chat here' });
      const elsewhere = await run('deep-model', other);
      expect(elsewhere.code).toBe(0);
      expect(paths(other)).toEqual(['/v1/chat/completions']);
      expect(notices(elsewhere.events)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('with providers.openai.api pinned to "chat", the run fails with the server\'s own words instead', async () => {
    mkdirSync(join(home.dir, 'configs'));
    writeFileSync(
      join(home.dir, 'configs', 'app.json'),
      JSON.stringify({ providers: { openai: { api: 'chat' } } }),
    );
    const r = await run('deep-model');
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({
        code: 'not_found',
        message: expect.stringContaining(
          'This model is only supported in v1/responses and not in v1/chat/completions.',
        ),
      }),
    ]);
    expect(notices(r.events)).toEqual([]);
    expect(paths(fake)).toEqual([]);
    expect(existsSync(join(home.dir, 'state', 'openai-responses-only.json'))).toBe(false);
  });
});
