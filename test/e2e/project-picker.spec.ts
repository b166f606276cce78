import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

test.use({ config: { agent: { workspace_mode: 'auto' } } });

test('the picker opens with Ctrl+P and switches project by keyboard alone', async ({
  app,
  projects,
}) => {
  await openProject(app, 'app');
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await expect(picker.getByRole('option', { name: /docs/ })).toBeVisible();
  await expect(picker.getByRole('option', { name: /app/ }).first()).toContainText('current');
  await app.keyboard.type('dcs');
  await expect(picker.getByRole('option').first()).toContainText('docs');
  await app.screenshot({ path: `${SCREENSHOTS}/project-picker.png` });
  await app.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar.locator('.project-name')).toHaveText('docs');
  await sidebar.getByRole('button', { name: 'New session', exact: true }).click();
  await expect(app.locator('.session-title')).toContainText('docs');
  await expect(app.locator('.session-title .path')).toHaveAttribute('title', projects.docs);

  // Arrow keys move, Escape closes without switching.
  await app.keyboard.press('Control+P');
  await expect(picker).toBeVisible();
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
  await expect(sidebar.locator('.project-name')).toHaveText('docs');
});

test('a folder typed in the picker opens as a project', async ({ app, projects }) => {
  await openProject(app, 'app');
  await app.keyboard.press('Control+P');
  await app.keyboard.type(projects.docs);
  await expect(app.getByRole('option', { name: /Open folder/ })).toBeVisible();
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('dialog', { name: 'Open project' })).toHaveCount(0);
  // The folder is the registered docs project: opening it by path lands on that entry.
  await expect(
    app.getByRole('navigation', { name: 'Sessions' }).locator('.project-name'),
  ).toHaveText('docs');
});

test("the agent's own project switch shows as a card", async ({ app, script }) => {
  script.push(
    { toolCalls: [{ name: 'switch_project', args: { project: 'docs' } }] },
    { text: 'Now in the docs project.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Look at the docs');
  // Switching widens what the agent reaches: asked in the default (ask) mode.
  await app
    .getByRole('article', { name: 'Approval: switch_project' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const card = app.getByRole('article', { name: 'Switched project to docs' });
  await expect(card).toContainText('app → docs');
  await expect(app.getByText('Now in the docs project.')).toBeVisible();
  await expect(app.locator('.session-title')).toContainText('docs');
  // The sidebar follows the session into its new project, so it stays in the list.
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar.locator('.project-name')).toHaveText('docs');
  await expect(sidebar.locator('.session.active')).toHaveCount(1);
  await app.screenshot({ path: `${SCREENSHOTS}/project-switch-card.png` });
});

test.describe('with the app project in git', () => {
  test.use({ gitRepo: true });

  test('a worktree made from the picker opens as its own project, listed under its repository', async ({
    app,
    home,
  }) => {
    await openProject(app, 'app');
    await app.keyboard.press('Control+P');
    const picker = app.getByRole('dialog', { name: 'Open project' });
    await app.keyboard.type('feature-port');
    const action = picker.getByRole('option', {
      name: /New worktree of app on branch feature-port/,
    });
    await expect(action).toBeVisible();
    while ((await action.getAttribute('aria-selected')) !== 'true')
      await app.keyboard.press('ArrowDown');
    await app.keyboard.press('Enter');
    await expect(picker).toHaveCount(0);
    const sidebar = app.getByRole('navigation', { name: 'Sessions' });
    await expect(sidebar.locator('.project-name')).toHaveText('feature-port');

    await app.keyboard.press('Control+P');
    const worktree = picker
      .getByRole('option', { name: /feature-port/ })
      .filter({ hasText: 'worktree' })
      .first();
    await expect(worktree).toContainText(`${home}/worktrees/app/feature-port`);
    await expect(worktree).toContainText('feature-port');
    await app.screenshot({ path: `${SCREENSHOTS}/picker-worktree.png` });
  });
});
