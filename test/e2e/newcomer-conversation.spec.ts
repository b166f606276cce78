import type { Page } from '@playwright/test';
import { test as hostTest, expect, shots, SCREENSHOTS } from './fixtures';
import { test } from './agent-fixtures';
import { longSessionBodies, seedSession } from './seed-session';
import type { SessionEventBody } from '../../shared/protocol/events';

// #26.6, as a newcomer met them: what the conversation's cards and messages said wrong. A session
// log on disk replayed by a real host, at both sizes and in both themes.

const EDIT_BLOCK =
  'src/server.ts\n```\n<<<<<<< SEARCH\nconst PORT = 3000;\n=======\nconst PORT = 4000;\n>>>>>>> REPLACE\n```\n';

const failures: SessionEventBody[] = [
  { type: 'user_message', text: 'Build it', message_id: 'm_b' },
  { type: 'run_state', state: 'running' },
  {
    type: 'tool_call',
    call_id: 'c_build',
    agent_id: 'root',
    name: 'aider_shell_tool',
    args: { command: 'npm run build' },
  },
  {
    type: 'tool_result',
    call_id: 'c_build',
    agent_id: 'root',
    name: 'aider_shell_tool',
    payload: {
      kind: 'shell',
      command: 'npm run build',
      cwd: '/work/app',
      stdout:
        "src/server.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n",
      exit_code: 1,
      duration_ms: 900,
      timed_out: false,
    },
  },
  {
    type: 'diagnostics',
    file: 'src/server.ts',
    text: "Diagnostics after the edit (line:column from 1):\nsrc/server.ts: 3 problems\n  3:7 error TS2322: Type 'string' is not assignable to type 'number'.\n  9:1 error TS1005: ';' expected.\n  12:3 warning TS6133: 'x' is declared but never read.",
    errors: 2,
    warnings: 1,
    agent_id: 'root',
  },
  {
    type: 'assistant_message',
    message_id: 'm_a',
    agent_id: 'root',
    text: 'The build fails on a type error in',
    stopped: true,
  },
  { type: 'run_state', state: 'stopped', reason: 'stopped by the user' },
  { type: 'user_message', text: 'Try the key again', message_id: 'm_k' },
  { type: 'run_state', state: 'running' },
  { type: 'error', code: 'auth', message: 'anthropic: 401 invalid x-api-key' },
  { type: 'run_state', state: 'failed', reason: 'anthropic: 401 invalid x-api-key' },
  { type: 'user_message', text: 'Move the port', message_id: 'm_p' },
  { type: 'run_state', state: 'running' },
  {
    type: 'tool_call',
    call_id: 'c_edit',
    agent_id: 'root',
    name: 'aider_edit_block_tool',
    args: { content: EDIT_BLOCK },
  },
  {
    type: 'approval_request',
    approval_id: 'ap_edit',
    call_id: 'c_edit',
    tool: 'aider_edit_block_tool',
    summary: 'Edit src/server.ts',
    detail:
      '--- a/src/server.ts\n+++ b/src/server.ts\n@@ -1,1 +1,1 @@\n-const PORT = 3000;\n+const PORT = 4000;\n',
    suggested_rule: 'aider_edit_block_tool(src/server.ts)',
  },
  { type: 'run_state', state: 'waiting', reason: 'approval' },
];

async function openSeeded(app: Page, home: string): Promise<void> {
  seedSession(home, 'Failures', [...longSessionBodies(12), ...failures]);
  await app.reload();
  await app.getByRole('button', { name: /^Failures/ }).click();
  await expect(app.getByRole('article', { name: /^Approval/ })).toBeVisible();
}

hostTest(
  'failure looks like failure: a command that exited 1, errors behind a folded Diagnostics card, a 401 with its way to Settings',
  async ({ app, home }) => {
    await openSeeded(app, home);
    const build = app.getByRole('article', { name: '$ npm run build' });
    await expect(build).toHaveClass(/\bfailed\b/);
    await expect(build.getByRole('img', { name: 'failed' })).toHaveClass(/status-dot failed/);
    await expect(build.locator('.card-meta.bad')).toHaveText('exit 1');
    const red = await build.locator('.card-meta.bad').evaluate((el) => getComputedStyle(el).color);
    const danger = await app.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--danger').trim(),
    );
    expect(red).toBe(hexToRgb(danger));

    const diagnostics = app.getByRole('article', { name: 'Diagnostics for src/server.ts' });
    await expect(diagnostics.getByRole('button')).toHaveAttribute('aria-expanded', 'false');
    await expect(diagnostics.locator('.card-meta')).toHaveText('2 errors, 1 warning');
    await expect(diagnostics.locator('.status-dot')).toHaveClass(/\bfailed\b/);

    // "Stopped by you" is said once, on the answer it cut short.
    await expect(app.getByText(/Stopped by you/)).toHaveCount(1);

    const auth = app.getByRole('alert').filter({ hasText: '401 invalid x-api-key' });
    await auth.getByRole('button', { name: 'Open Settings' }).click();
    await expect(app.getByRole('dialog', { name: 'Settings' })).toBeVisible();
    await app.keyboard.press('Escape');

    await shots(app, 'newcomer-failures');
  },
);

hostTest(
  'a call waiting for approval says so, and Always allow says what it allows in words',
  async ({ app, home }) => {
    await openSeeded(app, home);
    const edit = app.getByRole('article', { name: 'Edit src/server.ts' }).last();
    await expect(edit).toContainText('waiting for your approval');
    await expect(edit).not.toContainText('running');
    await expect(edit.getByRole('img', { name: 'waiting for your approval' })).toBeVisible();
    const approval = app.getByRole('article', { name: /^Approval/ });
    await expect(approval.getByLabel('Rule to add')).toHaveText('edits to src/server.ts');
    await expect(approval.locator('.always-allow')).not.toContainText('aider_edit_block_tool');
  },
);

hostTest(
  'pointing at a message moves nothing, and the Jump to latest pill covers no card',
  async ({ app, home }) => {
    await app.setViewportSize({ width: 900, height: 650 });
    await openSeeded(app, home);
    const log = app.getByRole('log', { name: 'Conversation' });
    const approval = app.getByRole('article', { name: /^Approval/ });
    const mine = log.getByLabel('You').filter({ hasText: 'Move the port' });
    const before = (await approval.boundingBox())!;
    const own = (await mine.boundingBox())!;
    await mine.hover();
    await expect(mine.getByRole('button', { name: 'Edit and resend' })).toBeVisible();
    const actions = mine.locator('.msg-actions');
    await expect(actions).toHaveCSS('opacity', '1');
    expect((await approval.boundingBox())!.y).toBe(before.y);
    expect((await mine.boundingBox())!.height).toBe(own.height);

    // Scrolled up, the pill is below the list: no row's header is under it.
    await log.evaluate((el) => el.parentElement!.scrollTo({ top: 200 }));
    const jump = app.getByRole('button', { name: /Jump to latest/ });
    await expect(jump).toBeVisible();
    const pill = (await jump.boundingBox())!;
    const list = (await log.evaluate((el) => {
      const r = el.parentElement!.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    }))!;
    expect(pill.y).toBeGreaterThanOrEqual(list.bottom);
    await jump.click();
    await expect(approval.getByRole('button', { name: 'Approve' })).toBeInViewport();
  },
);

hostTest(
  'Stop with nothing running is not red, and Settings keeps one height from tab to tab',
  async ({ app }) => {
    await expect(app.getByText('Connecting to the host')).toHaveCount(0);
    await app.getByRole('button', { name: 'New session', exact: true }).click();
    const stop = app.locator('.session-controls').getByRole('button', { name: 'Stop' });
    await expect(stop).toBeDisabled();
    const danger = await app.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--danger').trim(),
    );
    expect(await stop.evaluate((el) => getComputedStyle(el).color)).not.toBe(hexToRgb(danger));

    await app.getByRole('button', { name: 'Settings' }).click();
    const dialog = app.getByRole('dialog', { name: 'Settings' });
    const heights = new Set<number>();
    for (const tab of await dialog.getByRole('tab').all()) {
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      heights.add(Math.round((await dialog.boundingBox())!.height));
    }
    expect([...heights]).toHaveLength(1);
  },
);

hostTest('the pairing fingerprint breaks between bytes only', async ({ app }) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.setViewportSize({ width: 900, height: 650 });
  await app.getByRole('button', { name: 'Pair phone' }).click();
  const print = app.getByRole('dialog', { name: 'Pair phone' }).locator('.fingerprint');
  await expect(print).toHaveText(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  // Each byte's two digits sit on one line; the whole takes more than one.
  const lines = await print.evaluate((el) => {
    const tops: number[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.textContent!.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        tops.push(Math.round(r.getBoundingClientRect().top));
      }
    }
    return tops;
  });
  const text = (await print.textContent())!;
  expect(new Set(lines).size).toBeGreaterThan(1);
  for (let i = 0; i < text.length; i += 3) expect(lines[i], `byte at ${i}`).toBe(lines[i + 1]);
  await app.screenshot({ path: `${SCREENSHOTS}/pair-fingerprint-900.png` });
});

test('sending while scrolled up brings the message into view and follows the answer', async ({
  app,
  home,
  script,
}) => {
  seedSession(home, 'Long talk', longSessionBodies(80));
  script.push({ text: 'Here is the answer to the scrolled-up question.' });
  await app.reload();
  await app.getByRole('button', { name: /^Long session|^Long talk/ }).click();
  const log = app.getByRole('log', { name: 'Conversation' });
  await expect(log).toBeVisible();
  await log.evaluate((el) => el.parentElement!.scrollTo({ top: 0 }));
  await expect(app.getByRole('button', { name: /Jump to latest/ })).toBeVisible();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.fill('What about the scrolled-up question?');
  await box.press('Enter');
  await expect(log.getByLabel('You').filter({ hasText: 'scrolled-up question?' })).toBeInViewport();
  await expect(log.getByText('Here is the answer to the scrolled-up question.')).toBeInViewport();
  await expect(app.getByRole('button', { name: /Jump to latest/ })).toHaveCount(0);
});

/** `#rrggbb` as getComputedStyle gives a colour. */
function hexToRgb(hex: string): string {
  const n = parseInt(hex.replace('#', ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
