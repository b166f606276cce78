import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { OAuthTestServer } from '../../helpers/oauth-test-server';
import { pagesOpened, standInBrowserCommand } from '../../helpers/mcp-oauth-harness';
import { tempDir } from '../../helpers/temp';

// `mewbo mcp-auth` and `mewbo run` against a server behind OAuth, as a user runs them: the built
// CLI, a temp $MEWBO_HOME, a local authorization server, the stand-in browser as $BROWSER.

let home: ReturnType<typeof tempDir>;
let as: OAuthTestServer;
let fake: FakeAnthropic;
let browserLog: string;
let project: ReturnType<typeof tempDir>;
beforeEach(async () => {
  home = tempDir('mewbo-mcp-auth-');
  // Not under $MEWBO_HOME: no session may have the app's own folder as its project.
  project = tempDir('mewbo-mcp-auth-project-');
  as = await OAuthTestServer.start({ scope: 'docs:read' });
  fake = await FakeAnthropic.start();
  browserLog = join(home.dir, 'browser.log');
  mkdirSync(join(home.dir, 'configs'));
  writeFileSync(
    join(home.dir, 'configs', 'app.json'),
    JSON.stringify({ mcpServers: { docs: { type: 'http', url: as.mcpUrl } } }),
  );
});
afterEach(async () => {
  await as.close();
  await fake.close();
  home.cleanup();
  project.cleanup();
});

function mewbo(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runMewbo(args, {
    env: {
      MEWBO_HOME: home.dir,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      ...env,
    },
  });
}

const withBrowser = () => ({ BROWSER: standInBrowserCommand(browserLog) });

describe('mewbo mcp-auth', () => {
  it('login opens the page, takes the redirect and keeps the tokens in secrets.json only (0600)', async () => {
    const r = await mewbo(['mcp-auth', 'login', 'docs'], withBrowser());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^docs: signed in, by http:\/\/127\.0\.0\.1:\d+\/?, scopes docs:read/);
    const page = pagesOpened(browserLog)[0]!;
    expect(r.stderr).toContain(`sign in to docs at this page (opened with ${process.execPath})`);
    expect(r.stderr).toContain(page);
    const secrets = join(home.dir, 'configs', 'secrets.json');
    expect(readFileSync(secrets, 'utf8')).toContain(as.accessTokens[0]!);
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(home.dir, 'configs', 'app.json'), 'utf8')).not.toContain('at-');
  });

  it('status says who signed in and until when; logout forgets it', async () => {
    expect((await mewbo(['mcp-auth', 'status'])).stdout).toBe('docs: not signed in\n');
    await mewbo(['mcp-auth', 'login', 'docs'], withBrowser());
    expect((await mewbo(['mcp-auth', 'status', 'docs'])).stdout).toMatch(
      /^docs: signed in, .*access expires in 60 min, renewable\n$/,
    );
    const out = await mewbo(['mcp-auth', 'logout', 'docs']);
    expect(out).toMatchObject({ code: 0, stdout: expect.stringContaining('signed out') });
    expect((await mewbo(['mcp-auth', 'status'])).stdout).toBe('docs: not signed in\n');
  });

  it('names the servers there are when NAME is not one of them', async () => {
    const r = await mewbo(['mcp-auth', 'login', 'nope']);
    expect(r).toMatchObject({ code: 1 });
    expect(r.stderr).toContain("no server 'nope' in mcpServers of configs/app.json (there: docs)");
  });
});

describe('mewbo run with a server behind OAuth', () => {
  const callWhoami = () =>
    fake.script.push({ toolCalls: [{ name: 'mcp__docs__whoami', args: {} }] }, { text: 'done' });

  it('uses the sign-in made with mcp-auth, opening nothing', async () => {
    await mewbo(['mcp-auth', 'login', 'docs'], withBrowser());
    const pages = pagesOpened(browserLog).length;
    callWhoami();
    const r = await mewbo(
      ['run', '--project', project.dir, '--permission-mode', 'auto', 'who am I?'],
      withBrowser(),
    );
    expect(r.code).toBe(0);
    const result = jsonLines<{ type: string; payload?: { text?: string } }>(r.stdout).find(
      (e) => e.type === 'tool_result',
    );
    expect(result?.payload?.text).toMatch(/ docs:read$/);
    expect(pagesOpened(browserLog)).toHaveLength(pages);
  });

  it('signs in by itself when a browser can be opened, saying so on stderr', async () => {
    callWhoami();
    const r = await mewbo(['run', '--project', project.dir, 'who am I?'], withBrowser());
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /mewbo run: MCP server 'docs' needs sign-in: opening http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+ with .*; waiting up to 120 s\nmewbo run: MCP server 'docs': signed in\n/,
    );
    expect(fake.requests[0]!.tools).toContain('mcp__docs__whoami');
  });

  it('where nothing can open a browser it says which command signs in and goes on without the server', async () => {
    fake.script.push({ text: 'done' });
    const r = await mewbo(['run', '--project', project.dir, 'hi'], { DISPLAY: '', BROWSER: '' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "mewbo run: MCP server 'docs' needs sign-in and no browser can be opened here: run mewbo mcp-auth login docs; going on without it\n",
    );
    expect(fake.requests[0]!.tools.some((t) => t.startsWith('mcp__docs'))).toBe(false);
  });
});
