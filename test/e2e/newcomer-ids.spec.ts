import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test, expect, openProject, startSession } from './agent-fixtures';
import { tempDir } from '../helpers/temp';

// #26.6: internal ids showed. A folder opened by path is the project "managed:<id>" inside, and
// the header and the new-session page said so; a fork's note named the raw session id it came
// from, and forks were titled "<title> (fork)", cut by the list before the part that differs.

test('a folder opened by path is named by its folder in the header and on the new-session page', async ({
  app,
}) => {
  const parent = tempDir('mewbo-e2e-ids-');
  const folder = join(parent.dir, 'weather-station');
  mkdirSync(folder);
  try {
    await openProject(app, 'app');
    await app.keyboard.press('Control+P');
    await app.keyboard.type(folder);
    await expect(app.getByRole('option', { name: /Open folder/ })).toBeVisible();
    await app.keyboard.press('ArrowUp');
    await app.keyboard.press('Enter');
    await expect(app.getByRole('dialog', { name: 'Open project' })).toHaveCount(0);
    await app.getByRole('button', { name: 'New session', exact: true }).click();
    await expect(app.getByRole('heading', { level: 2 })).toHaveText(
      `What should the agent do in ${basename(folder)}?`,
    );
    await expect(app.locator('.session-title .path')).toHaveText(basename(folder));
    await expect(app.getByText(/managed:/)).toHaveCount(0);
  } finally {
    parent.cleanup();
  }
});

test('a fork is titled "Fork N: …" and its note links back to the session by its title', async ({
  app,
  script,
}) => {
  script.push({ text: 'Port 3000.' });
  await openProject(app, 'app');
  await startSession(app, 'Which port does the server use?');
  const answer = app.getByLabel('Agent').filter({ hasText: 'Port 3000.' });
  await answer.hover();
  await answer.getByRole('button', { name: 'Fork from here' }).click();
  await expect(app.getByRole('heading', { level: 1 })).toHaveText(
    'Fork 1: Which port does the server use?',
  );
  const note = app.getByRole('note').filter({ hasText: 'Forked from' });
  await note.getByRole('button', { name: 'Which port does the server use?' }).click();
  await expect(app.getByRole('heading', { level: 1 })).toHaveText(
    'Which port does the server use?',
  );
  // A second fork of the same session gets the next number, so the two differ at their start.
  await answer.hover();
  await answer.getByRole('button', { name: 'Fork from here' }).click();
  await expect(app.getByRole('heading', { level: 1 })).toHaveText(
    'Fork 2: Which port does the server use?',
  );
});
