import { test, expect, openProject, PORT_EDIT } from './agent-fixtures';
import type { RecordedRequest } from '../helpers/fake-model-script';
import { shots } from './fixtures';

// Issue 28 part 2: four sessions on one repository at once, each in its own worktree, the sidebar
// showing each one's state (done, running, waiting for you, failed), its branch and what it
// changed. A session left running keeps running while the others are worked with, and the one
// waiting for an approval gets it from wherever the person is. Keyboard only, real git.

test.use({
  gitRepo: true,
  config: { permission_mode: 'accept-edits', worktrees: { default_for: ['app'] } },
});

/** The model's turn for each session, told apart by the task named in its first message. */
function turn(seen: Map<string, number>) {
  return (req: RecordedRequest) => {
    const task = /Task (\w+)/.exec(req.transcript)?.[1] ?? '?';
    const n = seen.get(task) ?? 0;
    seen.set(task, n + 1);
    if (n > 0) return { text: `Finished ${task}.` };
    switch (task) {
      case 'alpha':
        return { toolCalls: [{ name: 'aider_edit_block_tool', args: { content: PORT_EDIT } }] };
      case 'beta':
        return { text: 'Working on beta, slowly', hang: true };
      case 'gamma':
        return {
          toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo g > gamma.txt' } }],
        };
      default:
        return {
          error: { status: 400, message: 'prompt is malformed', type: 'invalid_request_error' },
        };
    }
  };
}

test('four worktree sessions at once: their states, branches and changes in the sidebar; a waiting one is answered after switching', async ({
  app,
  script,
}) => {
  test.setTimeout(120_000);
  const seen = new Map<string, number>();
  for (let i = 0; i < 12; i++) script.push(turn(seen));
  await openProject(app, 'app');
  const box = app.getByRole('textbox', { name: 'Message' });
  const header = app.locator('.session-header');
  const log = app.getByRole('log', { name: 'Conversation' });

  const start = async (task: string) => {
    await app.keyboard.press('Control+N');
    // The new session is open (not the last one still on screen), in a worktree of its own.
    await expect(header.locator('h1')).toHaveText('New session');
    await expect(header.locator('.chip.branch')).toContainText('⎇ mewbo/');
    await expect(box).toBeFocused();
    await app.keyboard.type(`Task ${task}: do your part`);
    await app.keyboard.press('Enter');
  };
  await start('alpha');
  await expect(log.getByText('Finished alpha.')).toBeVisible();
  await start('beta');
  await expect(log.getByText('Working on beta, slowly')).toBeVisible();
  await start('gamma');
  await expect(app.getByRole('article', { name: /Approval/ })).toBeVisible();
  await start('delta');
  await expect(log.getByRole('alert')).toBeVisible();

  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  const row = (task: string) => sidebar.locator('.session-row').filter({ hasText: `Task ${task}` });
  await expect(row('alpha').locator('.meta')).toContainText('done');
  await expect(row('alpha').locator('.row-changed')).toHaveText('1 file');
  await expect(row('beta').locator('.meta')).toContainText('running');
  await expect(row('gamma').locator('.waiting-badge')).toHaveText('waiting for you');
  await expect(row('gamma').locator('.row-changed')).toHaveText('0 files');
  await expect(row('delta').locator('.meta')).toContainText('failed');
  /** From the open session's row, Home then Down until the row of `task` has the focus. */
  const toRow = async (task: string) => {
    await sidebar.locator('button.session[aria-current="page"]').focus();
    await app.keyboard.press('Home');
    const target = row(task).locator('button.session');
    for (let i = 0; i < 4; i++) {
      if (await target.evaluate((b) => b === document.activeElement)) break;
      await app.keyboard.press('ArrowDown');
    }
    await expect(target).toBeFocused();
  };
  const branches = await sidebar.locator('.row-branch').allTextContents();
  expect(branches).toHaveLength(4);
  expect(new Set(branches).size).toBe(4);
  // At every size each row's title line is one line: its state word or badge beside the title
  // (the title cut with an ellipsis), the branch one line under it.
  await shots(app, 'worktree-sidebar', async () => {
    for (const r of await sidebar.locator('.session-row').all()) {
      // One layout read for the three boxes: read one by one, the row's layout changed between
      // reads (its padding while hovered or focused, its state word) and the boxes disagreed.
      const { title, state, branch } = await r.evaluate((el) => {
        const box = (q: string) => {
          const b = el.querySelector(q)!.getBoundingClientRect();
          return { x: b.x, y: b.y, width: b.width, height: b.height };
        };
        return {
          title: box('.title'),
          state: box('.meta, .waiting-badge'),
          branch: box('.row-branch'),
        };
      });
      expect(Math.abs(state.y + state.height / 2 - (title.y + title.height / 2))).toBeLessThan(4);
      expect(state.x).toBeGreaterThanOrEqual(title.x + title.width - 1);
      expect(branch.height).toBeLessThan(title.height * 1.5);
    }
  });
  await app.setViewportSize({ width: 1280, height: 800 });

  // Down the list by keyboard to the waiting session; its approval is there, Alt+A answers it.
  await toRow('gamma');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('article', { name: /Approval/ })).toBeVisible();
  await app.keyboard.press('Alt+A');
  await expect(log.getByText('Finished gamma.')).toBeVisible();
  await expect(row('gamma').locator('.meta')).toContainText('done');
  await expect(row('gamma').locator('.row-changed')).toHaveText('1 file');

  // The session left running still is, with what it wrote so far.
  await expect(row('beta').locator('.meta')).toContainText('running');
  await toRow('beta');
  await app.keyboard.press('Enter');
  await expect(log.getByText('Working on beta, slowly')).toBeVisible();
  await expect(header.getByRole('status', { name: 'Run running' })).toBeVisible();
});
