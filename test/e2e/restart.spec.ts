import { test, expect, openProject, startSession } from './agent-fixtures';
import { startHost } from '../helpers/host-process';

// #17.4 (the ux half): after the host restarts, the tab comes back to the session it had open,
// at its last message, and each console shows its shell's retained output with the shell as it
// ended (killed with the host), not an empty console saying "no shell".

const TICKER = 'for i in 1 2 3 4 5; do echo "tick $i"; sleep 0.2; done\nsleep 60\n';
test.use({ files: { 'ticker.sh': TICKER }, config: { permission_mode: 'auto' } });

test('a restarted host reopens the open session and its consoles with their output', async ({
  app,
  script,
  host,
  home,
  hostEnv,
}) => {
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
  await expect(app.getByText('The ticker runs in the background.')).toBeVisible();

  await host.stop();
  const again = await startHost(home, hostEnv);
  try {
    expect(again.port).toBe(host.port);
    await app.goto(again.url);
    // The same session, scrolled to its end, without choosing it again.
    await expect(app.locator('.session-title h1')).toHaveText('Run the ticker');
    await expect(app.getByText('The ticker runs in the background.')).toBeInViewport();
    await expect(console).toContainText('tick 1');
    await expect(console).toContainText('tick 5');
    await expect(console.getByRole('status', { name: /Status: killed/ })).toBeVisible();
    await expect(console).not.toContainText('no shell');
  } finally {
    await again.stop();
  }
});
