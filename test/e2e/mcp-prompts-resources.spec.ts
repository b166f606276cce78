import { test as base, expect, openProject } from './agent-fixtures';
import { buildMcpTestServer } from '../helpers/mcp-test-server-build';

// #27 part 3 in the browser, through mewbo serve: a connected MCP server's prompt runs from the
// message box's / menu (its arguments shown as the hint, typed after the name), and its resource
// is picked from the @ menu and reaches the model with the message. The server is the test MCP
// server (test/helpers/mcp-test-server.ts) as a real process named `srv`.

const test = base.extend<{ serverJs: string }>({
  // eslint-disable-next-line no-empty-pattern
  serverJs: async ({}, use) => use(await buildMcpTestServer()),
  config: async ({ serverJs }, use) =>
    use({ mcpServers: { srv: { command: process.execPath, args: [serverJs] } } }),
});

test('an MCP prompt runs from the / menu, and an MCP resource attaches from the @ menu', async ({
  app,
  script,
}) => {
  script.push((req) => ({
    text: req.transcript.includes('Greet Ada.') ? 'Prompt received.' : 'no prompt seen',
  }));
  script.push((req) => ({
    text: req.transcript.includes('hello from the readme') ? 'Resource read.' : 'no resource seen',
  }));
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });

  const greet = app
    .getByRole('listbox', { name: 'Commands' })
    .getByRole('option')
    .filter({ hasText: '/srv:greet' });
  // The server starts with the host: the menu lists its prompts once it is connected.
  await expect(async () => {
    await box.fill('');
    await box.fill('/srv:g');
    await expect(greet).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(greet).toContainText('<name> [tone]');
  await expect(greet).toContainText('prompt of MCP server srv');
  await box.focus();
  await app.keyboard.press('Enter');
  await expect(box).toHaveValue('/srv:greet ');
  await app.keyboard.type('Ada');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Prompt received.')).toBeVisible();

  await box.focus();
  await app.keyboard.type('Summarize @readme');
  // Filtered by the resource's URI: while the query is still being typed the menu can list the
  // server's other resources too, and a strict locator fails at once on two matches.
  const readme = app
    .getByRole('listbox', { name: 'Files' })
    .getByRole('option')
    .filter({ hasText: 'test://readme' });
  await expect(readme).toHaveText(/^readmetest:\/\/readme · MCP server srv$/);
  await readme.click();
  await expect(box).toHaveValue('Summarize @srv:test://readme ');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Resource read.')).toBeVisible();
  const mine = app.getByLabel('You').filter({ hasText: 'Summarize @srv:test://readme' });
  await expect(mine.getByRole('list', { name: 'Attached files' })).toHaveText(
    /srv:test:\/\/readme/,
  );
});
