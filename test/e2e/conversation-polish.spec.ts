import type { Locator, Page } from '@playwright/test';
import { SCREENSHOTS } from './fixtures';
import { test, expect } from './agent-fixtures';
import {
  longSessionBodies,
  readmeQuestion,
  seedSession,
  shellApprovalWait,
  todosBody,
} from './seed-session';
import type { SessionEventBody } from '../../shared/protocol/events';

// #17: what the screenshots of the conversation pane showed wrong at 1440x900 and 900x650 (a
// header wrapped to three and four rows, a placeholder cut mid-line, a model name under its
// drop-down arrow, a sidebar that said "no sessions" while one was open, a blank new session).
// Each assertion holds one of them, measured in Chromium.

const LONG_TITLE = 'Make the server port configurable from the environment and document it';

const busy: SessionEventBody[] = [
  ...longSessionBodies(6),
  // The header's context meter shows too: the most a header holds.
  {
    type: 'usage',
    agent_id: 'root',
    model: 'claude-sonnet-4-5',
    input_tokens: 50_000,
    output_tokens: 1_000,
    context_window: 200_000,
    compact_at_tokens: 160_000,
    cost_usd: 0.17,
  },
  todosBody([
    ['Read the server entry point', 'completed'],
    ['Make the port configurable', 'in_progress'],
  ]),
  ...shellApprovalWait('Run: npm run build', '$ npm run build'),
];

/** How many distinct rows the boxes sit on (boxes whose vertical middles are 8 px apart or more). */
async function rowsOf(parts: Locator[]): Promise<number> {
  const middles: number[] = [];
  for (const part of parts) {
    const box = await part.boundingBox();
    expect(box, String(part)).not.toBeNull();
    middles.push(box!.y + box!.height / 2);
  }
  middles.sort((a, b) => a - b);
  return middles.filter((m, i) => i === 0 || m - middles[i - 1]! >= 8).length;
}

/**
 * Where a drop-down's text can reach, against where its arrow is drawn (the rightmost 18 px inside
 * its border): the text is as wide as the font makes it, cut at the end of the content box.
 */
async function selectText(select: Locator) {
  return select.evaluate((el: HTMLSelectElement) => {
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = cs.font;
    const px = (v: string) => parseFloat(v) || 0;
    const width = ctx.measureText(el.selectedOptions[0]?.text ?? '').width;
    const start = px(cs.borderLeftWidth) + px(cs.paddingLeft);
    const contentEnd = el.offsetWidth - px(cs.borderRightWidth) - px(cs.paddingRight);
    return {
      textEnd: Math.min(start + width, contentEnd),
      arrowStart: el.offsetWidth - px(cs.borderRightWidth) - 18,
    };
  });
}

async function openBusySession(app: Page, home: string, size: { width: number; height: number }) {
  seedSession(home, 'Port', busy);
  await app.setViewportSize(size);
  await app.reload();
  // Renamed in place (F2) to a title longer than any header has room for.
  const row = app.getByRole('navigation', { name: 'Sessions' }).locator('.session');
  await row.click();
  await row.press('F2');
  const rename = app.getByRole('textbox', { name: 'Session title' });
  await rename.fill(LONG_TITLE);
  await rename.press('Enter');
  await expect(app.locator('.session-title h1')).toHaveText(LONG_TITLE);
  await expect(app.getByRole('article', { name: /^Approval/ })).toBeVisible();
  if (size.width < 1100) await app.getByRole('button', { name: 'Show activity dock' }).click();
  await expect(app.getByRole('region', { name: 'Todos' })).toBeVisible();
  await expect(app.getByRole('combobox', { name: 'Model' })).toContainText('(default)');
}

for (const size of [
  { width: 1440, height: 900, rows: 1 },
  { width: 900, height: 650, rows: 2 },
]) {
  test(`at ${size.width}x${size.height} the header keeps to ${size.rows} row(s), the model's name stays clear of its arrow and the placeholder is whole`, async ({
    app,
    home,
  }) => {
    await openBusySession(app, home, size);
    const header = app.locator('.session-header');
    const title = header.getByRole('heading', { level: 1 });
    const model = header.getByRole('combobox', { name: 'Model' });
    const mode = header.getByRole('combobox', { name: 'Permission mode' });
    const parts = [
      title,
      header.getByRole('status', { name: /^Run / }),
      header.getByRole('meter', { name: 'Context window' }),
      model,
      mode,
      header.getByRole('button', { name: 'Stop', exact: true }),
    ];
    expect.soft(await rowsOf(parts), 'header rows').toBeLessThanOrEqual(size.rows);
    // A title too long for its room ends in an ellipsis; the whole of it is in the tooltip.
    await expect.soft(title).toHaveAttribute('title', LONG_TITLE);
    // Each part is whole inside the header, and none lies over another.
    const room = (await header.boundingBox())!;
    const boxes = [];
    for (const part of parts) {
      const box = (await part.boundingBox())!;
      expect
        .soft(box.x + box.width, `${String(part)} right edge`)
        .toBeLessThanOrEqual(room.x + room.width);
      boxes.push({ name: String(part), ...box });
    }
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.x + a.width <= b.x ||
          b.x + b.width <= a.x ||
          a.y + a.height <= b.y ||
          b.y + b.height <= a.y;
        expect.soft(apart, `${a.name} and ${b.name} do not overlap`).toBe(true);
      }

    for (const select of [model, mode]) {
      const { textEnd, arrowStart } = await selectText(select);
      expect
        .soft(textEnd, `${String(select)} text end vs its arrow`)
        .toBeLessThanOrEqual(arrowStart);
    }

    // The empty message box shows its whole placeholder: nothing below the box's last line.
    const box = app.getByRole('textbox', { name: 'Message' });
    await expect(box).toHaveValue('');
    const fits = await box.evaluate((el) => el.scrollHeight <= el.clientHeight);
    expect.soft(fits, 'placeholder fits its box').toBe(true);
    await header.screenshot({ path: `${SCREENSHOTS}/header-${size.width}x${size.height}.png` });
  });
}

test('with a question open at 900x650, the message box says a message answers instead, whole', async ({
  app,
  home,
}) => {
  seedSession(home, 'Port', [
    ...longSessionBodies(2),
    readmeQuestion(),
    todosBody([['Update the README', 'pending']]),
    { type: 'run_state', state: 'waiting', reason: 'question' },
  ]);
  await app.setViewportSize({ width: 900, height: 650 });
  await app.reload();
  await app.getByRole('navigation', { name: 'Sessions' }).locator('.session').click();
  await expect(app.getByRole('article', { name: 'Question: Docs' })).toBeVisible();
  // The narrowest message box a window this size has: the activity dock open beside it.
  await app.getByRole('button', { name: 'Show activity dock' }).click();
  await expect(app.getByRole('region', { name: 'Todos' })).toBeVisible();
  const box = app.getByRole('textbox', { name: 'Message' });
  await expect(box).toHaveAttribute('placeholder', /new message/);
  expect(await box.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
});

test('after a reload the sidebar never says there are no sessions while one is open', async ({
  app,
  home,
}) => {
  // (The host may retitle a short seeded session from its first exchange: rows are found by place.)
  seedSession(home, 'Configurable port', longSessionBodies(2));
  await app.reload();
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  const row = sidebar.locator('.session');
  await row.click();
  await expect(row).toHaveAttribute('aria-current', 'page');

  // Every change to the page from its first script on is checked for the empty-list words.
  await app.addInitScript(() => {
    const w = window as unknown as { sawEmpty: boolean };
    w.sawEmpty = false;
    const check = () => {
      if (document.body?.textContent?.includes('No sessions in this project yet.'))
        w.sawEmpty = true;
    };
    new MutationObserver(check).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  await app.reload();
  await expect(row).toHaveAttribute('aria-current', 'page');
  await expect(app.getByRole('log', { name: 'Conversation' })).toBeVisible();
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  expect(await app.evaluate(() => (window as unknown as { sawEmpty: boolean }).sawEmpty)).toBe(
    false,
  );

  // The watch does see the words once the list is known to be empty: it is not blind.
  await sidebar.getByRole('button', { name: /^More actions for / }).click();
  await sidebar.getByRole('menuitem', { name: /Delete/ }).click();
  await app
    .getByRole('dialog', { name: 'Delete session?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(sidebar).toContainText('No sessions in this project yet.');
  expect(await app.evaluate(() => (window as unknown as { sawEmpty: boolean }).sawEmpty)).toBe(
    true,
  );
});

test('a new session says what the agent can do and how to mention files and run commands, until the first message', async ({
  app,
  script,
}) => {
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const start = app.getByRole('region', { name: 'Getting started' });
  await expect(start).toBeVisible();
  await expect(start).toContainText('@');
  await expect(start).toContainText('/');
  await app.screenshot({ path: `${SCREENSHOTS}/new-session.png` });
  script.push({ text: 'Hello there.' });
  await app.getByRole('textbox', { name: 'Message' }).fill('Say hello');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Hello there.')).toBeVisible();
  await expect(start).toHaveCount(0);
});
