import { join } from 'node:path';
import { test as base, expect, openProject, startSession } from './agent-fixtures';
import { shots } from './fixtures';
import { expectRing, tabTo } from './keyboard';
import { buildMcpTestServer } from '../helpers/mcp-test-server-build';
import { STAND_IN_BROWSER, pagesOpened } from '../helpers/mcp-oauth-harness';
import { tempDir } from '../helpers/temp';
import { BILLING_FORM } from '../helpers/elicitation-forms';

// An MCP server's elicitation in the web UI (`mewbo serve` in Chromium): a real test MCP server
// (configs/app.json) whose `elicit` tool asks mid-call, a scripted model that calls it. The form is
// a card naming the server, answered with the keyboard alone, its fields checked in the card; a
// URL-mode request shows the page's host and opens it (the stand-in browser, as $BROWSER) only
// once the person chooses Open page.

const test = base.extend<{ pages: { log: string } }>({
  // eslint-disable-next-line no-empty-pattern
  pages: async ({}, use) => {
    const t = tempDir('mewbo-e2e-pages-');
    await use({ log: join(t.dir, 'pages.log') });
    t.cleanup();
  },
  // eslint-disable-next-line no-empty-pattern
  config: async ({}, use) =>
    use({
      mcpServers: { billing: { command: process.execPath, args: [await buildMcpTestServer()] } },
    }),
  hostEnv: async ({ fake, projects, pages }, use) => {
    void projects;
    await use({
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      BROWSER: `${process.execPath} ${STAND_IN_BROWSER} --log ${pages.log}`,
    });
  },
});

/** The model calls billing's elicit tool, then says what the server was told. */
function scriptElicit(script: { push(...r: unknown[]): void }, args: Record<string, string>) {
  script.push(
    { toolCalls: [{ name: 'mcp__billing__elicit', args }] },
    (req: { transcript: string }) => {
      const text = req.transcript.replace(/\\"/g, '"');
      const told = /\{"action":"\w+"(,"content":\{[^}]*\})?\}/.exec(text)?.[0] ?? 'nothing';
      return { text: `The server was told: ${told}` };
    },
  );
}

test('an MCP form is answered with the keyboard alone: typed fields, defaults filled, checked in the card', async ({
  app,
  script,
}) => {
  scriptElicit(script, {
    message: 'Where should the invoice go?',
    schema: JSON.stringify(BILLING_FORM),
  });
  await openProject(app, 'app');
  await startSession(app, 'Set up billing');
  const card = app.getByRole('article', { name: 'billing asks: Where should the invoice go?' });
  await expect(card).toBeVisible();
  await expect(card.locator('.card-title')).toHaveText('billing');
  await expect(card.getByRole('spinbutton', { name: 'Seats' })).toHaveValue('2');
  await expect(card.getByRole('radio', { name: 'Team' })).toBeChecked();
  await shots(app, 'elicitation-form', async () => {
    await card.scrollIntoViewIfNeeded();
    const box = await card.boundingBox();
    const width = app.viewportSize()!.width;
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  });

  // From the composer, Shift+Tab back into the card: the email field.
  const email = card.getByRole('textbox', { name: /Invoice email/ });
  await tabTo(app, email, true);
  await app.keyboard.type('not an address');
  await app.keyboard.press('Enter');
  await expect(card.getByRole('alert').first()).toHaveText(
    'Invoice email must be an email address (name@example.com)',
  );
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await app.keyboard.press('Control+A');
  await app.keyboard.type('ann@example.com');
  await tabTo(app, card.getByRole('spinbutton', { name: 'Seats' }));
  await app.keyboard.press('ArrowUp');
  await tabTo(app, card.getByRole('radio', { name: 'Team' }));
  await app.keyboard.press('ArrowDown');
  await expect(card.getByRole('radio', { name: 'Business' })).toBeChecked();
  await tabTo(app, card.getByRole('checkbox', { name: /paper invoice/ }));
  await app.keyboard.press('Space');
  await tabTo(app, card.getByRole('button', { name: 'Submit' }));
  await app.keyboard.press('Enter');

  await expect(
    app.getByText(
      'The server was told: {"action":"accept","content":{"email":"ann@example.com","seats":3,"plan":"business","paper":true}}',
    ),
  ).toBeVisible();
  await expect(card.locator('.card-meta')).toHaveText('answered');
  await expect(card).toContainText('Business');
  await expectRing(app);
});

test('a URL-mode request shows the page host and opens it only once Open page is chosen', async ({
  app,
  script,
  pages,
}) => {
  const url = 'https://pay.example.com/checkout?order=7';
  scriptElicit(script, { message: 'Pay for the order on the page', url });
  await openProject(app, 'app');
  await startSession(app, 'Pay the order');
  const card = app.getByRole('article', { name: 'billing asks: Pay for the order on the page' });
  await expect(card.locator('.elicit-host')).toHaveText('pay.example.com');
  await expect(card).toContainText('Nothing opens until you choose Open page.');
  await shots(app, 'elicitation-url');
  expect(pagesOpened(pages.log)).toEqual([]);
  await card.getByRole('button', { name: 'Open page' }).click();
  await expect(app.getByText('The server was told: {"action":"accept"}')).toBeVisible();
  await expect(card).toContainText('Opened in your browser.');
  // The stand-in starts detached after the answer is sent, so its log may not exist yet: a poll
  // whose callback throws fails at once instead of waiting.
  await expect.poll(() => pagesOpened(pages.log)[0]).toBe(url);
});
