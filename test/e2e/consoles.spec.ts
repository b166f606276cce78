import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// ticker.sh prints a line every 300 ms, then echoes a line typed into it, then idles.
const TICKER =
  'for i in 1 2 3 4 5 6 7 8; do echo "tick $i"; sleep 0.3; done\necho "type something:"\nread line\necho "got:$line"\nsleep 60\n';
test.use({ files: { 'ticker.sh': TICKER, 'src/server.ts': 'const PORT = 3000;\n' } });

test('a background shell runs after approval and streams into its live console, which takes input and kills it', async ({
  app,
  script,
}) => {
  script.push(
    {
      text: 'Starting the ticker in the background.',
      toolCalls: [
        { name: 'aider_shell_tool', args: { command: 'sh ticker.sh', run_in_background: true } },
      ],
    },
    { text: 'The ticker is running.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Run the ticker');
  const approval = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(approval.getByLabel('Full command')).toContainText('$ sh ticker.sh');
  await expect(approval).toContainText('runs in the background');
  await approval.getByRole('button', { name: 'Approve' }).click();

  const console = app.getByRole('region', { name: 'Console: sh ticker.sh' });
  // Live: an early line shows while the shell is still running, before its last line exists.
  await expect(console).toContainText('tick 2');
  await expect(console.getByRole('status', { name: /Status: running/ })).toBeVisible();
  await expect(console).toContainText('tick 8');
  await expect(console).toContainText('type something:');
  await app.screenshot({ path: `${SCREENSHOTS}/console-live.png` });

  await console.getByRole('textbox', { name: 'Input to sh ticker.sh' }).fill('hello console');
  await console.getByRole('textbox', { name: 'Input to sh ticker.sh' }).press('Enter');
  await expect(console).toContainText('got:hello console');

  await app.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await console.getByRole('button', { name: 'Copy' }).click();
  await expect(console.getByRole('status').filter({ hasText: 'Copied all output' })).toBeVisible();
  const copied = await app.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('tick 1\ntick 2');
  expect(copied).toContain('got:hello console');

  await console.getByRole('button', { name: 'Search' }).click();
  await console.getByRole('searchbox', { name: 'Search console output' }).fill('tick 5');
  await console.getByRole('searchbox', { name: 'Search console output' }).press('Enter');
  await expect(console.getByRole('status').filter({ hasText: 'No match' })).toHaveCount(0);

  await console.getByRole('button', { name: 'Kill' }).click();
  await app
    .getByRole('dialog', { name: 'Kill the process?' })
    .getByRole('button', { name: 'Kill' })
    .click();
  await expect(console.getByRole('status', { name: /Status: killed/ })).toBeVisible();
  await expect(console.getByRole('button', { name: 'Kill' })).toBeDisabled();
});

test('a line typed before the console has heard from its shell reaches the shell', async ({
  app,
  script,
}) => {
  // The console shows a running shell from the session log before its stream's first frame (the
  // shell's state) arrives. Frames from the host are held back from that frame on, so the line is
  // typed while the console does not yet know the shell: it must reach the shell, not vanish.
  const held: (string | Buffer)[] = [];
  let holding: 'not yet' | 'holding' | 'released' = 'not yet';
  let toPage: ((m: string | Buffer) => void) | null = null;
  const inputs: string[] = [];
  await app.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    toPage = (m) => ws.send(m);
    ws.onMessage((m) => {
      if (typeof m === 'string' && m.includes('"shells.input"')) inputs.push(m);
      server.send(m);
    });
    server.onMessage((m) => {
      if (holding === 'not yet' && typeof m === 'string' && m.includes('"shell_state"'))
        holding = 'holding';
      if (holding === 'holding') held.push(m);
      else ws.send(m);
    });
  });
  await app.reload();
  script.push(
    {
      toolCalls: [
        {
          name: 'aider_shell_tool',
          args: { command: 'read -r l; echo "got:$l"; sleep 60', run_in_background: true },
        },
      ],
    },
    { text: 'Started.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Echo a line');
  await app
    .getByRole('article', { name: 'Approval: aider_shell_tool' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const console = app.getByRole('region', { name: /^Console: read -r l/ });
  await expect(console.getByRole('status', { name: /Status: running/ })).toBeVisible();
  await expect.poll(() => holding).toBe('holding');

  const input = console.getByRole('textbox', { name: /^Input to/ });
  await input.fill('typed early');
  await input.press('Enter');
  await expect(input).toHaveValue('');
  // Nothing is sent while the shell is unknown (a pipe and a tty end a line differently)...
  expect(inputs).toEqual([]);
  holding = 'released';
  for (const m of held.splice(0)) toPage!(m);
  // ...and everything typed goes once the host has said the shell runs.
  await expect(console.locator('.xterm-rows')).toContainText('got:typed early');
  expect(inputs).toHaveLength(1);
});

test("reopening a session shows its shells' retained output", async ({ app, script }) => {
  script.push(
    {
      toolCalls: [
        { name: 'aider_shell_tool', args: { command: 'sh ticker.sh', run_in_background: true } },
      ],
    },
    { text: 'Started.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Run the ticker');
  await app
    .getByRole('article', { name: 'Approval: aider_shell_tool' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const console = app.getByRole('region', { name: 'Console: sh ticker.sh' });
  await expect(console).toContainText('tick 3');

  await app.reload();
  await app
    .getByRole('navigation', { name: 'Sessions' })
    .getByRole('button', { name: 'New session', exact: false })
    .first()
    .waitFor();
  await app.locator('.session').first().click();
  const reopened = app.getByRole('region', { name: 'Console: sh ticker.sh' });
  await expect(reopened).toContainText('tick 1');
  await expect(reopened).toContainText('tick 8');
});

test('output far larger than the host keeps reaches the console whole: the console acks what it drew and the shell waits', async ({
  app,
  script,
}) => {
  // 3,000,000 characters, three times the host's 1,000,000-character buffer, printed only once the
  // console is attached (it waits for a typed line), so an unacked console would lose the middle.
  const produce =
    "read go; i=0; while [ $i -lt 30000 ]; do printf '%099d\\n' $i; i=$((i+1)); done; echo ALL-DONE; sleep 60";
  script.push(
    {
      toolCalls: [
        { name: 'aider_shell_tool', args: { command: produce, run_in_background: true } },
      ],
    },
    { text: 'Waiting for go.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Print a lot');
  await app
    .getByRole('article', { name: 'Approval: aider_shell_tool' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const console = app.getByRole('region', { name: /^Console: read go/ });
  await expect(console.getByRole('status', { name: /Status: running/ })).toBeVisible();
  await console.getByRole('textbox', { name: /^Input to/ }).fill('go');
  await console.getByRole('textbox', { name: /^Input to/ }).press('Enter');
  // The header names the command, and the command names ALL-DONE: only the terminal's rows say
  // the shell got there, so the wait reads them (on the region it passed at once, leaving the last
  // line 10 s to arrive).
  const rows = console.locator('.xterm-rows');
  await expect(rows).toContainText('ALL-DONE', { timeout: 60_000 });
  await expect(rows).toContainText('0000029999');
  await expect(console).not.toContainText('evicted');
});
