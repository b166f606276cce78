import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, openProject } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// The trust prompt asks once per project, without blocking the conversation, and shows what
// trusting would start; Settings lists trusted projects and revokes them.

const MARKER = 'mcp-server-ran';
test.use({
  files: {
    'README.md': '# App\n',
    '.mcp.json': JSON.stringify({
      mcpServers: { planted: { command: 'sh', args: ['-c', `echo ran > ${MARKER}; sleep 60`] } },
    }),
  },
});

test('an untrusted project asks once, shows what it would start, and starts nothing until trusted; Settings revokes', async ({
  app,
  projects,
  home,
}) => {
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const prompt = app.getByRole('region', { name: 'Workspace trust' });
  await expect(prompt).toContainText('Trust this project?');
  await expect(prompt.getByRole('list', { name: 'Would start' })).toContainText(
    `MCP server planted: sh -c echo ran > ${MARKER}; sleep 60`,
  );
  // Not a modal: the message box is usable while the question stands.
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeEditable();
  await app.screenshot({ path: `${SCREENSHOTS}/trust-prompt.png` });
  expect(existsSync(join(projects.app, MARKER))).toBe(false);

  await prompt.getByRole('button', { name: 'Trust project' }).click();
  await expect(prompt).toHaveCount(0);
  const written = JSON.parse(readFileSync(join(home, 'configs', 'app.json'), 'utf8'));
  expect(written.projects.app.trusted).toBe(true);

  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Trusted projects' }).click();
  const table = dialog.getByRole('table', { name: 'Trusted projects' });
  await expect(table).toContainText(projects.app);
  await table.getByRole('button', { name: `Revoke trust in ${projects.app}` }).click();
  await expect(dialog.getByText('No project is trusted.')).toBeVisible();
  const after = JSON.parse(readFileSync(join(home, 'configs', 'app.json'), 'utf8'));
  expect(after.projects.app.trusted).toBeUndefined();
});

test('"Not now" is remembered: the prompt does not come back for that project', async ({ app }) => {
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const prompt = app.getByRole('region', { name: 'Workspace trust' });
  await prompt.getByRole('button', { name: 'Not now' }).click();
  await expect(prompt).toHaveCount(0);
  await app.reload();
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(prompt).toHaveCount(0);
});

test('a file changed after trust asks again with its diff; trusting the change accepts it', async ({
  app,
  projects,
}) => {
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const prompt = app.getByRole('region', { name: 'Workspace trust' });
  await prompt.getByRole('button', { name: 'Trust project' }).click();
  await expect(prompt).toHaveCount(0);
  // A `git pull` (or the agent) adds a server after the user trusted the project.
  writeFileSync(
    join(projects.app, '.mcp.json'),
    JSON.stringify({ mcpServers: { pulled: { command: 'sh', args: ['-c', 'id'] } } }),
  );
  await app.reload();
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const again = app.getByRole('region', { name: 'Workspace trust changed' });
  await expect(again).toContainText('Trust these changes?');
  await expect(again).toContainText('.mcp.json (changed)');
  await expect(again).toContainText('"pulled"');
  await app.screenshot({ path: `${SCREENSHOTS}/trust-changed-prompt.png` });
  await again.getByRole('button', { name: 'Trust the changes' }).click();
  await expect(again).toHaveCount(0);
});
