import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ModelScript, ScriptStep } from '../helpers/fake-model-script';
import { test, expect, openProject, startSession } from './agent-fixtures';

// #17.6: a PTY has the console's size, not 120x30: a session's first shell is born at the size
// its console will have (measured before the console exists), it follows every fit, and a shell
// started later is born at the size the consoles last fitted to.

test.use({ config: { permission_mode: 'auto' } });

const SIZES = 'while true; do stty size; sleep 0.2; done';
/**
 * A shell that says when it is resized (a PTY resized to another size signals its shell), prints
 * its size once, marks that it has (the file `.born` in its folder), then prints it on a loop.
 */
const BORN = `trap 'echo WINCH' WINCH; stty size; : > .born; ${SIZES}`;

/** Until the shell started with BORN in `dir` has printed its first size. */
async function bornIn(dir: string): Promise<void> {
  await expect.poll(() => existsSync(join(dir, '.born')), { timeout: 15_000 }).toBe(true);
}

const TODOS = {
  name: 'update_todos',
  args: {
    todos: [
      { label: 'Look at the terminal', status: 'in_progress' },
      { label: 'Read its size', status: 'pending' },
      { label: 'Report it', status: 'pending' },
    ],
  },
};

/** The model starts `command` in a background shell with a terminal, then says it watches. */
function watchInShell(command: string): ScriptStep[] {
  return [
    {
      toolCalls: [
        { name: 'aider_shell_tool', args: { command, run_in_background: true, tty: true } },
      ],
    },
    { text: 'Watching the size.' },
  ];
}

/** The model plans (the todos), then starts a BORN shell when asked to start the console. */
function planThenBornShell(script: ModelScript): void {
  script.push(
    { text: 'Planned.', toolCalls: [TODOS] },
    { text: 'Planned.' },
    ...watchInShell(BORN),
  );
}

/**
 * Asks for the console with the dock folded, waits until the shell has printed its first size
 * with no console on screen, then unfolds the dock (`show`) onto the console and the todos.
 */
async function startWhileFolded(app: Page, project: string, show: Locator): Promise<Locator> {
  await app.getByRole('textbox', { name: 'Message' }).fill('Now start the console');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Watching the size.')).toBeVisible();
  await bornIn(project);
  await show.click();
  const console = app.getByRole('region', { name: /^Console: trap/ });
  await expect(console).toBeVisible();
  await expect(app.getByRole('region', { name: 'Todos' })).toBeVisible();
  return console;
}

/** The shell's first line was its console's fitted size, and it was never resized after. */
async function expectBornAtItsFit(app: Page, console: Locator): Promise<void> {
  const { first, fitted } = await settled(app, console);
  expect(first).toBe(fitted);
  expect(await lines(console)).not.toContain('WINCH');
}

test('a PTY takes the size of the console it shows in, from its first line when it can', async ({
  app,
  script,
}) => {
  script.push(
    ...watchInShell(SIZES),
    {
      toolCalls: [
        {
          name: 'aider_shell_tool',
          args: { command: 'stty size; sleep 30', run_in_background: true, tty: true },
        },
      ],
    },
    { text: 'Second one started.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Show the terminal size');
  const first = app.getByRole('region', { name: /^Console: while true/ });
  await expect(first).toBeVisible();
  // The size xterm fitted to, read from the page (rows and columns of its grid).
  const fitted = async () =>
    app.evaluate(() => {
      const rows = document.querySelectorAll('.xterm-rows > div').length;
      const probe = document.querySelector('.xterm-helper-textarea')?.closest('.xterm');
      const width = probe?.querySelector('.xterm-screen')?.clientWidth ?? 0;
      return { rows, width };
    });
  expect((await fitted()).rows).toBeGreaterThan(0);
  // stty prints "rows cols": soon it is the console's, and never again 30x120.
  await expect(first.locator('.xterm-rows')).not.toContainText(/\b30 120\s*$/);
  // The loop prints every 0.2 s: wait until its newest line is a size other than the default
  // (the resize reaches the PTY a moment after the console measured itself).
  const newest = async () =>
    ((await first.locator('.xterm-rows').innerText()).trim().split('\n').at(-1) ?? '').trim();
  // Until the newest line is the fitted grid's size (not the 120-column default), as the
  // console settles into its pane.
  await expect
    .poll(
      async () => {
        const [r, c] = (await newest()).split(' ').map(Number);
        return r === (await fitted()).rows && c !== undefined && c < 120;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  const [rows, cols] = (await newest()).split(' ').map(Number) as [number, number];
  // The session's first shell was born at that size too: its very first line, printed before
  // its console existed, is already the console's (the page measured where the console would
  // go and told the host before the shell started).
  const firstLine = (await first.locator('.xterm-rows').innerText()).trim().split('\n')[0];
  expect(firstLine?.trim()).toBe(`${rows} ${cols}`);

  await app.getByRole('textbox', { name: 'Message' }).fill('Start another');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await app.getByRole('tab', { name: /stty size; sleep 30/ }).click();
  const second = app.getByRole('region', { name: /^Console: stty size; sleep 30/ });
  // Its very first line, printed before any console could resize it, is the size the consoles
  // last measured, never the 120x30 default: the columns of the pane, and its rows give or take
  // the one row the console strip's layout may add or take as a second tab appears.
  await expect
    .poll(
      async () => {
        const line = (await second.locator('.xterm-rows').innerText()).trim().split('\n')[0] ?? '';
        const [r, c] = line.trim().split(' ').map(Number);
        const gridRows = await second.locator('.xterm-rows > div').count();
        return c === cols && r !== undefined && Math.abs(r - gridRows) <= 1;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
});

/** The lines a console shows, trimmed: the oldest first. */
async function lines(console: Locator): Promise<string[]> {
  return (await console.locator('.xterm-rows').innerText())
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/**
 * Waits until the loop's newest `stty size` line is the size the console fitted to (its grid's
 * rows, the same line twice in a row), and returns it with the shell's very first line.
 */
async function settled(app: Page, console: Locator): Promise<{ first: string; fitted: string }> {
  let fitted = '';
  await expect
    .poll(
      async () => {
        const all = await lines(console);
        const newest = all.at(-1) ?? '';
        const rows = await console.locator('.xterm-rows > div').count();
        const ok = newest === fitted && Number(newest.split(' ')[0]) === rows;
        fitted = newest;
        return ok;
      },
      { timeout: 15_000, intervals: [500] },
    )
    .toBe(true);
  const first = (await lines(console))[0] ?? '';
  return { first, fitted };
}

test('in a small window the dock is folded: the first shell is born at the size its console gets once the dock is shown', async ({
  app,
  script,
}) => {
  script.push(...watchInShell(SIZES));
  await app.setViewportSize({ width: 900, height: 650 });
  await app.reload();
  await openProject(app, 'app');
  await startSession(app, 'Show the terminal size');
  // The console's tab is behind the folded dock: the shell runs with no console on screen.
  await expect(app.getByText('Watching the size.')).toBeVisible();
  const show = app.getByRole('button', { name: 'Show activity dock' });
  await expect(show).toBeVisible();
  await show.click();
  const console = app.getByRole('region', { name: /^Console: while true/ });
  await expect(console).toBeVisible();
  const { first, fitted } = await settled(app, console);
  expect(fitted).not.toBe('30 120');
  expect(first).toBe(fitted);
});

test('with the todos already in the dock, the first shell is born at the size its console gets below them', async ({
  app,
  script,
}) => {
  script.push(
    { text: 'Planned.', toolCalls: [TODOS] },
    { text: 'Planned.' },
    ...watchInShell(`trap 'echo WINCH' WINCH; ${SIZES}`),
  );
  await openProject(app, 'app');
  await startSession(app, 'Plan it');
  await expect(app.getByRole('region', { name: 'Todos' })).toBeVisible();
  await expect(app.getByText('Planned.').last()).toBeVisible();
  await app.getByRole('textbox', { name: 'Message' }).fill('Now start the console');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const console = app.getByRole('region', { name: /^Console: trap/ });
  await expect(console).toBeVisible();
  await expect(app.getByRole('region', { name: 'Todos' })).toBeVisible();
  const { first, fitted } = await settled(app, console);
  expect(fitted).not.toBe('30 120');
  expect(first).toBe(fitted);
  // Never resized after its birth (a PTY resized to another size signals its shell): the first
  // line alone can race, when the console's fit reaches the PTY before the shell's first stty.
  expect(await lines(console)).not.toContain('WINCH');
});

test('with the dock folded and showing only todos, the first shell is born at the size its console gets below them once shown', async ({
  app,
  script,
  projects,
}) => {
  planThenBornShell(script);
  await app.setViewportSize({ width: 900, height: 650 });
  await app.reload();
  await openProject(app, 'app');
  await startSession(app, 'Plan it');
  await expect(app.getByText('Planned.').last()).toBeVisible();
  const show = app.getByRole('button', { name: 'Show activity dock' });
  await expect(show).toBeVisible();
  const console = await startWhileFolded(app, projects.app, show);
  await expectBornAtItsFit(app, console);
});

test('a dock the user sized and then folded unfolds, after a reload, to that width, and its first shell is born at the size its console gets there', async ({
  app,
  script,
  projects,
}) => {
  planThenBornShell(script);
  await app.setViewportSize({ width: 1440, height: 900 });
  await app.reload();
  await openProject(app, 'app');
  await startSession(app, 'Plan it');
  await expect(app.getByRole('region', { name: 'Todos' })).toBeVisible();
  await expect(app.getByText('Planned.').last()).toBeVisible();
  const dock = app.locator('[data-panel][id="dock"]');
  const dockWidth = async () => (await dock.boundingBox())?.width ?? 0;
  // Drag the dock's splitter 150 px to the left: wider than a todo dock starts, narrower than
  // the default a console's dock unfolds to.
  const splitter = app.getByRole('separator', { name: 'Resize the activity dock' });
  const at = (await splitter.boundingBox())!;
  const before = await dockWidth();
  await app.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await app.mouse.down();
  await app.mouse.move(at.x + at.width / 2 - 150, at.y + at.height / 2, { steps: 10 });
  await app.mouse.up();
  await expect.poll(dockWidth).toBeGreaterThan(before + 100);
  const sized = await dockWidth();
  await app.getByRole('button', { name: 'Hide activity dock' }).click();
  // The window remembers its layout with the dock folded (saved a moment after the fold).
  await expect
    .poll(() =>
      app.evaluate(() =>
        Object.keys(sessionStorage).some((k) => {
          if (!k.endsWith(':dock')) return false;
          const dock = (JSON.parse(sessionStorage.getItem(k) ?? '{}') as { dock?: number }).dock;
          return dock !== undefined && (dock / 100) * window.innerWidth < 40;
        }),
      ),
    )
    .toBe(true);
  await app.reload();
  const show = app.getByRole('button', { name: 'Show activity dock' });
  await expect(show).toBeVisible();
  await expect(app.getByText('Planned.').last()).toBeVisible();
  const console = await startWhileFolded(app, projects.app, show);
  expect(Math.abs((await dockWidth()) - sized)).toBeLessThanOrEqual(1);
  await expectBornAtItsFit(app, console);
});
