import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// Taking back what the agent did, from the conversation: an approved edit is rewound from its
// message (files and conversation), the rewind is undone, and a session is forked from a message.

const BLOCK =
  'src/server.ts\n```\n<<<<<<< SEARCH\nconst PORT = 3000;\n=======\nconst PORT = 4000;\n>>>>>>> REPLACE\n```\n';

test.use({ config: { permission_mode: 'auto' } });

test('Rewind to here restores the file and folds the turn away; Undo brings both back; Fork from here opens a copy', async ({
  app,
  script,
  projects,
}) => {
  const file = join(projects.app, 'src/server.ts');
  script.push(
    { toolCalls: [{ name: 'aider_edit_block_tool', args: { content: BLOCK } }] },
    { text: 'The port is now 4000.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Move the port to 4000');
  await expect(app.getByText('The port is now 4000.')).toBeVisible({ timeout: 20_000 });
  expect(readFileSync(file, 'utf8')).toContain('4000');

  const log = app.getByRole('log', { name: 'Conversation' });
  const message = log.getByLabel('You').filter({ hasText: 'Move the port to 4000' });
  await message.hover();
  await message.getByRole('button', { name: 'Rewind to here' }).click();
  const dialog = app.getByRole('dialog', { name: 'Rewind to here' });
  await expect(dialog.locator('.rewind-file')).toContainText('src/server.ts restored');
  await app.screenshot({ path: `${SCREENSHOTS}/rewind-preview.png` });
  await dialog.getByRole('button', { name: 'Files and conversation' }).click();
  await expect(dialog).toBeHidden();

  const row = log.getByRole('note').filter({ hasText: 'Rewound files and conversation' });
  await expect(row).toContainText('1 restored');
  await expect(log.getByText('The port is now 4000.')).toBeHidden();
  expect(readFileSync(file, 'utf8')).toBe('const PORT = 3000;\nexport default PORT;\n');

  await row.getByRole('button', { name: 'Undo rewind' }).click();
  await expect(log.getByRole('note').filter({ hasText: 'Undone: rewind' })).toBeVisible();
  await expect(log.getByText('The port is now 4000.')).toBeVisible();
  await expect.poll(() => readFileSync(file, 'utf8')).toContain('const PORT = 4000;');

  const answer = log.getByLabel('Agent').filter({ hasText: 'The port is now 4000.' });
  await answer.hover();
  await answer.getByRole('button', { name: 'Fork from here' }).click();
  await expect(app.getByRole('heading', { level: 1, name: /^Fork 1: / })).toBeVisible();
  await expect(log.getByRole('note').filter({ hasText: 'Forked from' })).toBeVisible();
  await expect(log.getByText('The port is now 4000.')).toBeVisible();
});
