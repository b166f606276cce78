import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as remoteTest, expect } from './remote-fixtures';
import { openProject } from './agent-fixtures';

// The window's questions about a session on an SSH host (issue #29), in Chromium against
// `mewbo serve` and a real sshd: the trust prompt names and trusts the project's ssh:// URL (the
// host's path names another folder on this computer), and an approval offers no "this project"
// scope (the app does not write the host's settings file; the host refuses that scope).

const MARKER = 'mcp-server-ran';

const test = remoteTest.extend({
  config: async ({ sshd }, use) => {
    const folder = join(sshd.remoteHome, 'site');
    mkdirSync(folder);
    writeFileSync(
      join(folder, '.mcp.json'),
      JSON.stringify({
        mcpServers: { planted: { command: 'sh', args: ['-c', `echo ran > ${MARKER}`] } },
      }),
    );
    await use({
      remote: { ssh_config: sshd.clientConfig },
      permission_mode: 'ask',
      remote_projects: { site: { url: `ssh://${sshd.alias}${folder}` } },
    });
  },
});

test('the trust prompt of a remote session names its ssh:// URL and trusting it trusts the URL', async ({
  app,
  sshd,
}) => {
  // Installing the remote part on a loaded machine takes a while.
  test.setTimeout(180_000);
  const url = `ssh://${sshd.alias}${sshd.remoteHome}/site`;
  await openProject(app, 'site');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const prompt = app.getByRole('region', { name: 'Workspace trust' });
  await expect(prompt).toContainText(`Trusting ${url} would start:`, { timeout: 60_000 });
  await expect(prompt.getByRole('list', { name: 'Would start' })).toContainText(
    'MCP server planted',
  );
  await prompt.getByRole('button', { name: 'Trust project' }).click();
  await expect(prompt).toHaveCount(0);

  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Trusted projects' }).click();
  const table = dialog.getByRole('table', { name: 'Trusted projects' });
  await expect(table.getByRole('button', { name: `Revoke trust in ${url}` })).toBeVisible();
  // The host's path alone is not what was trusted.
  await expect(
    table.getByRole('button', { name: `Revoke trust in ${sshd.remoteHome}/site` }),
  ).toHaveCount(0);
});

test('an approval in a remote session offers "Always allow" for the session or everywhere, not this project', async ({
  app,
  script,
}) => {
  test.setTimeout(180_000);
  script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo hi there' } }] },
    { text: 'Said hi on the host.' },
  );
  await openProject(app, 'site');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await app.getByRole('textbox', { name: 'Message' }).fill('Say hi');
  // The send waits for the first connection (the remote part's install on a loaded machine).
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const approval = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  const where = approval.getByLabel('Where the rule applies');
  await expect(where).toBeVisible({ timeout: 60_000 });
  expect(await where.locator('option').allTextContents()).toEqual(['this session', 'everywhere']);
  await approval.getByRole('button', { name: 'Always allow' }).click();
  await expect(app.getByText('Said hi on the host.')).toBeVisible({ timeout: 60_000 });
  await expect(approval).toContainText('(this session)');
});
