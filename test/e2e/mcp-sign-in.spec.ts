import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect } from './agent-fixtures';
import { OAuthTestServer } from '../helpers/oauth-test-server';
import { STAND_IN_BROWSER } from '../helpers/mcp-oauth-harness';
import { tempDir } from '../helpers/temp';

// Sign in from Settings: an HTTP MCP server behind OAuth (a local authorization server and
// protected MCP server, real HTTP) waits for sign-in; the user presses Sign in on its row, the row
// waits while the browser (the stand-in, started as $BROWSER) is on the consent page, and the
// server runs signed in once the browser comes back.

const test = base.extend<{ oauth: OAuthTestServer; consent: { dir: string; approve(): void } }>({
  // eslint-disable-next-line no-empty-pattern
  oauth: async ({}, use) => {
    const server = await OAuthTestServer.start({ scope: 'mcp:read' });
    await use(server);
    await server.close();
  },
  // eslint-disable-next-line no-empty-pattern
  consent: async ({}, use) => {
    const t = tempDir('mewbo-e2e-consent-');
    await use({ dir: t.dir, approve: () => writeFileSync(join(t.dir, 'approved'), '') });
    t.cleanup();
  },
  config: async ({ oauth }, use) =>
    use({ mcpServers: { guarded: { type: 'http', url: oauth.mcpUrl } } }),
  // As agent-fixtures' own: after the config is written, with the fake model; plus $BROWSER.
  hostEnv: async ({ consent, fake, projects }, use) => {
    void projects;
    await use({
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      BROWSER: `${process.execPath} ${STAND_IN_BROWSER} --log ${join(consent.dir, 'pages.log')} --wait-for ${join(consent.dir, 'approved')}`,
    });
  },
});

test('Sign in on the server row waits for the browser, then the server runs signed in', async ({
  app,
  consent,
}) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'MCP servers' }).click();
  const row = dialog.getByRole('row', { name: /guarded/ });
  await expect(row).toContainText('needs_sign_in');
  await expect(row).toContainText('mewbo mcp-auth login guarded');

  await row.getByRole('button', { name: 'Sign in to guarded' }).click();
  await expect(row).toContainText('waiting for sign-in');
  await expect(row.getByRole('status')).toContainText('Finish signing in in the browser');
  await expect(row.getByRole('button', { name: 'Sign in to guarded' })).toBeDisabled();

  consent.approve();
  await expect(row).toContainText('running');
  await expect(row.getByRole('button', { name: 'Sign out of guarded' })).toBeVisible();
  await expect(row).not.toContainText('waiting for sign-in');
});
