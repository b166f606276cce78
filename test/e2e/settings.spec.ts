import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

test.use({ config: { mcpServers: { broken: { command: '/bin/false' } } } });

test('settings show the model, change the edit backend in configs/app.json, show the sandbox, MCP servers and theme', async ({
  app,
  home,
}) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  await expect(dialog.getByRole('status').first()).toContainText('via Anthropic');
  await expect(dialog.getByLabel('API key')).toHaveAttribute('placeholder', /from the environment/);
  await app.screenshot({ path: `${SCREENSHOTS}/settings-model.png` });

  await dialog.getByRole('tab', { name: 'Agent & sandbox' }).click();
  await expect(dialog.getByRole('status', { name: 'Sandbox status' })).toHaveText(
    /Landlock|Unconfined|refused|Off/,
  );
  const status = dialog.getByRole('status', { name: 'Sandbox status' });
  if ((await status.textContent())?.includes('Landlock'))
    await expect(status).toContainText('Network:');
  // The write scope is the project by default; unrestricted is a choice, with a warning.
  const writes = dialog.getByRole('combobox', { name: 'Shell writes' });
  await expect(writes).toHaveValue('project');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await writes.selectOption('unrestricted');
  await expect(dialog.getByRole('alert')).toContainText('~/.bashrc');
  await expect
    .poll(() => JSON.parse(readFileSync(join(home, 'configs', 'app.json'), 'utf8')).agent)
    .toMatchObject({ shell_write_scope: 'unrestricted' });
  await writes.selectOption('project');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  const backend = dialog.getByRole('combobox', { name: 'Edit backend' });
  await expect(backend).toContainText('Follow the model (now SEARCH/REPLACE blocks)');
  await backend.selectOption('structured_patch');
  await expect(backend).toHaveValue('structured_patch');
  const written = JSON.parse(readFileSync(join(home, 'configs', 'app.json'), 'utf8'));
  expect(written.agent.edit_tool).toBe('structured_patch');
  expect(Object.keys(written.projects)).toEqual(['app', 'docs']);
  await app.screenshot({ path: `${SCREENSHOTS}/settings-agent.png` });

  await dialog.getByRole('tab', { name: 'MCP servers' }).click();
  const row = dialog.getByRole('row', { name: /broken/ });
  await expect(row).toContainText(/failed|restarting|starting/);

  await dialog.getByRole('tab', { name: 'Appearance' }).click();
  await dialog.getByRole('radio', { name: 'Dark' }).check();
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await app.screenshot({ path: `${SCREENSHOTS}/settings-dark.png` });
  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the theme follows the system until one is chosen', async ({ app }) => {
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
});
