import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, openProject } from './agent-fixtures';
import { shots } from './fixtures';
import { tempDir } from '../helpers/temp';

// #26.6: the project picker is a folder browser: a path typed lists the real folders completing
// it, Tab takes the highlighted one into the box and lists its own, Enter opens one as a project;
// a name that matches nothing says so and how to add a project. Keyboard only.

test('a typed path completes from real folders with Tab, and Enter opens one', async ({ app }) => {
  const tree = tempDir('mewbo-e2e-browse-');
  try {
    mkdirSync(join(tree.dir, 'alpha', 'inner'), { recursive: true });
    mkdirSync(join(tree.dir, 'alpine'));
    mkdirSync(join(tree.dir, 'beta'));
    writeFileSync(join(tree.dir, 'alert.txt'), 'a file, not a folder\n');
    await openProject(app, 'app');
    await app.keyboard.press('Control+P');
    const picker = app.getByRole('dialog', { name: 'Open project' });
    const input = picker.getByRole('combobox', { name: 'Search projects' });
    await app.keyboard.type(`${tree.dir}/al`);
    const folders = picker.getByRole('option').filter({ hasText: tree.dir });
    await expect(picker.getByRole('option', { name: /^alpha\// })).toBeVisible();
    await expect(picker.getByRole('option', { name: /^alpine\// })).toBeVisible();
    await expect(folders.filter({ hasText: 'beta' })).toHaveCount(0);
    await expect(folders.filter({ hasText: 'alert.txt' })).toHaveCount(0);
    await expect(picker).toContainText('Tab completes the folder');
    await shots(app, 'picker-folders');

    await app.keyboard.press('Tab');
    await expect(input).toBeFocused();
    await expect(input).toHaveValue(`${tree.dir}/alpha/`);
    const inner = picker.getByRole('option', { name: /^inner\// });
    await expect(inner).toBeVisible();
    while ((await inner.getAttribute('aria-selected')) !== 'true')
      await app.keyboard.press('ArrowDown');
    await app.keyboard.press('Enter');
    await expect(picker).toHaveCount(0);
    await expect(
      app.getByRole('navigation', { name: 'Sessions' }).locator('.project-name'),
    ).toHaveText('inner');
  } finally {
    tree.cleanup();
  }
});

test('a name that matches no project says so and how to add one', async ({ app }) => {
  await openProject(app, 'app');
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await app.keyboard.type('zzqx');
  await expect(picker.getByRole('status')).toHaveText(
    'No project matches “zzqx”. To add one, type the path of its folder (starting with /, Tab completes it) or drop a folder on the window.',
  );
  await shots(app, 'picker-no-match');
});
