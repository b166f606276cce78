import { test, expect, SCREENSHOTS } from './fixtures';
import { longSessionBodies, readmeQuestion, seedSession, todosBody } from './seed-session';
import type { SessionEventBody } from '../../shared/protocol/events';

// A session log written to disk and replayed by a real host: every card kind draws from the
// durable events alone, the way a reopened session does after a restart.

const extra: SessionEventBody[] = [
  todosBody([
    ['Read the server entry point', 'completed'],
    ['Make the port configurable', 'completed'],
    ['Run the test suite', 'in_progress'],
    ['Update the README', 'pending'],
  ]),
  {
    type: 'panel',
    ui_id: 'gui-0000abcd',
    call_id: 'c_p',
    summary: 'Test status',
    text: 'Tests: 4 passed',
    spec: {
      root: [
        {
          type: 'Card',
          title: 'Test run',
          children: [
            {
              type: 'Stack',
              direction: 'row',
              children: [
                { type: 'Badge', label: '4 passed', tone: 'success' },
                { type: 'Badge', label: '0 failed', tone: 'neutral' },
              ],
            },
            {
              type: 'KeyValue',
              items: [
                { label: 'Suite', value: 'server.test.ts' },
                { label: 'Duration', value: '12 ms' },
              ],
            },
            {
              type: 'Table',
              headers: ['Test', 'Result'],
              rows: [
                ['GET /', 'pass'],
                ['PORT env', 'pass'],
              ],
            },
            { type: 'Sparkline', values: [1, 2, 3] },
            { type: 'Link', label: 'Vitest docs', href: 'https://vitest.dev' },
          ],
        },
      ],
    },
  },
  {
    type: 'approval_request',
    approval_id: 'ap_1',
    call_id: 'c_ap',
    tool: 'aider_shell_tool',
    summary: 'Run a shell command',
    detail: 'rm -rf dist && npm run build -- --mode production',
  },
  readmeQuestion('Document the PORT variable'),
];

test('a seeded session draws tool cards, a panel, an approval, a question and the todo dock', async ({
  app,
  home,
}) => {
  const s = seedSession(home, 'Configurable port', [...longSessionBodies(41), ...extra]);
  await app.reload();
  await app.getByRole('button', { name: /^Configurable port/ }).click();
  await expect(app.getByRole('region', { name: 'Todos' })).toContainText('Run the test suite');
  await expect(app.getByRole('article', { name: 'Question: Docs' })).toBeVisible();
  await expect(app.getByRole('radio', { name: /Yes/ })).toBeVisible();
  await app.screenshot({ path: `${SCREENSHOTS}/seeded-question.png` });
  await app.getByRole('log', { name: 'Conversation' }).hover();
  await app.mouse.wheel(0, -700);
  await expect(app.getByRole('article', { name: /Panel: Test status/ })).toBeVisible();
  await expect(app.getByRole('note').filter({ hasText: 'Sparkline' })).toBeVisible();
  await app.screenshot({ path: `${SCREENSHOTS}/seeded-panel.png` });
  expect(s.count).toBe(45);
});

test('a 10,000-event session opens at its end with only the rows in view in the page, and scrolls back to the start', async ({
  app,
  home,
}) => {
  seedSession(home, 'Ten thousand events', longSessionBodies(10_000));
  await app.reload();
  await app.getByRole('button', { name: /^Ten thousand events/ }).click();
  await expect(app.getByText('Done with step 1000.')).toBeVisible();
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeEditable();
  // Virtualized: a few dozen rows are in the DOM, not thousands.
  expect(await app.locator('.tl-row').count()).toBeLessThan(60);
  await app.screenshot({ path: `${SCREENSHOTS}/long-session.png` });
  const log = app.getByRole('log', { name: 'Conversation' });
  // The session opened with its newest page only; older pages load as the reader reaches the top.
  const first = app.getByText('Step 1: make the port configurable and run the tests');
  await expect(async () => {
    await log.evaluate((el) => el.parentElement!.scrollTo({ top: 0 }));
    await expect(first).toBeVisible({ timeout: 250 });
  }).toPass({ intervals: [50], timeout: 60_000 });
  // Paged: still only the rows in view are in the DOM.
  expect(await app.locator('.tl-row').count()).toBeLessThan(60);
  await expect(app.getByRole('button', { name: /Jump to latest/ })).toBeVisible();
  await app.getByRole('button', { name: /Jump to latest/ }).click();
  await expect(app.getByText('Done with step 1000.')).toBeVisible();
});
