import { test as base, expect, openProject } from './agent-fixtures';
import { buildMcpTestServer } from '../helpers/mcp-test-server-build';

// #27 part 3 in the browser, through mewbo serve: an MCP server's notifications/progress for a
// running call are drawn on that call's tool card (message and share of the total), and Stop
// ends the call. The server is the test MCP server (test/helpers/mcp-test-server.ts) as a real
// process named `srv`; its `slow` tool reports 1 of 3, then 2 of 3, then waits to be cancelled.

const test = base.extend<{ serverJs: string }>({
  // eslint-disable-next-line no-empty-pattern
  serverJs: async ({}, use) => use(await buildMcpTestServer()),
  config: async ({ serverJs }, use) =>
    use({
      permission_mode: 'auto',
      mcpServers: { srv: { command: process.execPath, args: [serverJs] } },
    }),
});

test("an MCP call's progress shows on its tool card while it runs", async ({ app, script }) => {
  script.push({ toolCalls: [{ name: 'mcp__srv__slow', args: {} }] }, { text: 'Stopped.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  // The server starts with the host: its prompts in the / menu say it is connected.
  const greet = app
    .getByRole('listbox', { name: 'Commands' })
    .getByRole('option')
    .filter({ hasText: '/srv:greet' });
  await expect(async () => {
    await box.fill('');
    await box.fill('/srv:g');
    await expect(greet).toBeVisible({ timeout: 1000 });
  }).toPass();
  await box.fill('Run the slow tool');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('status', { name: 'progress' })).toHaveText('step 2 · 67%', {
    timeout: 30_000,
  });
  await app.getByRole('button', { name: 'Stop' }).first().click();
  await expect(app.getByRole('status', { name: 'progress' })).toHaveCount(0);
});
