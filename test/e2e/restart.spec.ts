import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, openProject, startSession } from './agent-fixtures';
import { shots } from './fixtures';
import type { ModelScript } from '../helpers/fake-model-script';
import { startHost } from '../helpers/host-process';

// #17.4 (the ux half): after the host restarts, the tab comes back to the session it had open,
// at its last message, and each console shows its shell's retained output with the shell as it
// ended (killed with the host), not an empty console saying "no shell".

const TICKER = 'for i in 1 2 3 4 5; do echo "tick $i"; sleep 0.2; done\nsleep 60\n';
test.use({ files: { 'ticker.sh': TICKER }, config: { permission_mode: 'auto' } });

/** A session in the app project whose background shell has ticked to 5; returns its console. */
async function startTicker(app: Page, script: ModelScript): Promise<Locator> {
  script.push(
    {
      toolCalls: [
        { name: 'aider_shell_tool', args: { command: 'sh ticker.sh', run_in_background: true } },
      ],
    },
    { text: 'The ticker runs in the background.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Run the ticker');
  const console = app.getByRole('region', { name: 'Console: sh ticker.sh' });
  await expect(console).toContainText('tick 5');
  return console;
}

/** After the restart the console still shows the shell's output, and how the shell ended. */
async function expectKept(console: Locator, status: RegExp): Promise<void> {
  await expect(console).toContainText('tick 1');
  await expect(console).toContainText('tick 5');
  await expect(console.getByRole('status', { name: status })).toBeVisible();
  await expect(console).not.toContainText('no shell');
}

test('a restarted host reopens the open session and its consoles with their output', async ({
  app,
  script,
  host,
  home,
  hostEnv,
}) => {
  const console = await startTicker(app, script);
  await expect(app.getByText('The ticker runs in the background.')).toBeVisible();

  await host.stop();
  const again = await startHost(home, hostEnv);
  try {
    expect(again.port).toBe(host.port);
    await app.goto(again.url);
    // The same session, scrolled to its end, without choosing it again.
    await expect(app.locator('.session-title h1')).toHaveText('Run the ticker');
    await expect(app.getByText('The ticker runs in the background.')).toBeInViewport();
    await expectKept(console, /Status: killed/);
  } finally {
    await again.stop();
  }
});

test('after the host is killed mid-run, its shells are listed with their output and said to be lost', async ({
  app,
  script,
  host,
  home,
  hostEnv,
}) => {
  const console = await startTicker(app, script);
  await expect(console.getByRole('status', { name: /Status: running/ })).toBeVisible();
  // What a crash may lose is the last second of output: wait until the kept record has it.
  const sessions = join(home, 'sessions');
  await expect
    .poll(() => {
      for (const id of readdirSync(sessions)) {
        const file = join(sessions, id, 'shells', 'shell_1.json');
        if (existsSync(file) && readFileSync(file, 'utf8').includes('tick 5')) return true;
      }
      return false;
    })
    .toBe(true);

  // No exit path runs: the shell's exit is never logged nor recorded by this host.
  await host.stop('SIGKILL');
  const again = await startHost(home, hostEnv);
  try {
    await app.goto(again.url);
    await expect(app.locator('.session-title h1')).toHaveText('Run the ticker');
    await expectKept(console, /Status: lost: the app stopped/);
    // The tab's dot says it too: not the pulsing "running" the log alone would still claim.
    const tab = app.getByRole('tab', { name: /sh ticker\.sh, lost/ });
    await expect(tab).toBeVisible();
    await expect(tab.locator('.run-dot')).toHaveClass(/stopped/);
    await expect(app.locator('.console-tab .run-dot.running')).toHaveCount(0);
    await shots(app, 'shell-lost');
  } finally {
    await again.stop();
  }
});
