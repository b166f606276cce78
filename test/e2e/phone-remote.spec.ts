import { devices, expect as baseExpect, test as base, type Page } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Host } from '../../electron/host/host';
import type { ClientContext } from '../../electron/host/rpc/router';
import type { CommandName, RequestOf, ResponseOf } from '../../shared/protocol/commands';
import type { SessionEvent } from '../../shared/protocol/events';
import { FakeOpenAi } from '../helpers/fake-openai';
import { tempDir } from '../helpers/temp';
import { buildMcpTestServer } from '../helpers/mcp-test-server-build';
import { buildScriptedAgent } from '../helpers/acp-agent-build';
import { PUSH_PERMISSION, say } from '../helpers/acp-steps';
import { BILLING_FORM } from '../helpers/elicitation-forms';

// Nine engineers share two cores: an outcome may take longer than the default 5 s to show.
const expect = baseExpect.configure({ timeout: 15_000 });

// #21 part 3: the phone page as a remote, on a 360x740 phone, against a real host (temp
// MEWBO_HOME, scripted model, the real pinned-TLS pairing listener serving the built page). A
// phone paired with remote rights opens on what waits on you, approves a command in full view and
// the run goes on; it answers a question; it keeps working after a reload and a dropped socket;
// and when the desktop revokes the right, every remote item leaves the page at once.

const root = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOTS = join(root, 'test-results', 'screenshots');
const CLIENT: ClientContext = { clientId: 'phone-e2e', transport: 'local' };
const PHONE = { width: 360, height: 740 };

/**
 * `billing`: a real MCP server whose `elicit` tool asks the user mid-call; `agentScript`: the
 * scripted ACP agent (test/fixtures/acp-scripted-agent.ts) configured as agents.scripted with
 * this script; each for the tests that use it.
 */
const test = base.extend<{ billing: boolean; agentScript: Record<string, unknown> | null }>({
  billing: [false, { option: true }],
  agentScript: [null, { option: true }],
});

test.use({
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--ignore-certificate-errors'],
  },
});

let host: Host;
let fake: FakeOpenAi;
let projectDir: string;
/** Where the scripted agent records what it received and the answers it got. */
let agentRecord: string;
const cleanups: (() => void | Promise<void>)[] = [];

test.beforeEach(async ({ billing, agentScript }) => {
  const home = tempDir('mewbo-phone-remote-home-');
  const project = tempDir('mewbo-phone-remote-proj-');
  const dist = tempDir('mewbo-phone-remote-dist-');
  projectDir = project.dir;
  fake = await FakeOpenAi.start({ apiKey: 'sk-test' });
  cleanups.push(() => fake.close(), home.cleanup, project.cleanup, dist.cleanup);
  const { buildPhonePage } = (await import(
    pathToFileURL(join(root, 'build', 'phone-page.mjs')).href
  )) as { buildPhonePage(o: { root: string; outdir: string }): Promise<string> };
  await buildPhonePage({ root, outdir: join(dist.dir, 'phone') });
  mkdirSync(join(home.dir, 'configs'), { recursive: true });
  const agent = tempDir('mewbo-phone-remote-agent-');
  cleanups.push(agent.cleanup);
  agentRecord = join(agent.dir, 'record.jsonl');
  const agentFile = join(agent.dir, 'script.json');
  if (agentScript)
    writeFileSync(agentFile, JSON.stringify({ record: agentRecord, ...agentScript }));
  writeFileSync(
    join(home.dir, 'configs', 'app.json'),
    JSON.stringify({
      projects: { api: { path: project.dir } },
      permission_mode: 'ask',
      devices: { host: '127.0.0.1' },
      ...(billing
        ? {
            mcpServers: {
              billing: { command: process.execPath, args: [await buildMcpTestServer()] },
            },
          }
        : {}),
      ...(agentScript
        ? {
            agents: {
              scripted: {
                command: process.execPath,
                args: [await buildScriptedAgent(), agentFile],
              },
            },
          }
        : {}),
    }),
  );
  host = await Host.create({
    env: {
      PATH: process.env.PATH,
      HOME: home.dir,
      MEWBO_HOME: home.dir,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseUrl,
    },
    distDir: dist.dir,
  });
});

test.afterEach(async () => {
  await host.dispose();
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function invoke<K extends CommandName>(method: K, params: RequestOf<K>) {
  const r = await host.router.invoke(method, params, CLIENT);
  if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
  return r.value as ResponseOf<K>;
}

async function events(id: string): Promise<SessionEvent[]> {
  return (await invoke('sessions.open', { id })).events;
}

/** A session whose agent runs `command`, which needs approval in ask mode. */
async function sessionRunning(command: string, title: string): Promise<string> {
  fake.script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command } }] },
    { text: `Ran ${command}.` },
  );
  const id = (await invoke('sessions.create', { project: 'api' })).session.id;
  await invoke('sessions.rename', { id, title }).catch(() => undefined);
  await invoke('sessions.send', {
    id,
    text: `please run ${command}`,
    capabilities: ['generative_ui', 'ask_user', 'approvals'],
  });
  return id;
}

async function pair(page: Page, remote: boolean): Promise<string> {
  const offer = await invoke('devices.createOffer', { remote });
  await page.goto(offer.pairing_url);
  await expect(page.locator('#pair-form')).toBeVisible();
  if (remote) await shoot(page, 'phone-pair-360');
  await page.locator('#device-name').fill('Pixel in the garden');
  await page.getByRole('button', { name: 'Pair' }).tap();
  await expect(page.locator('#state')).toHaveText('Connected as “Pixel in the garden”.');
  return (await invoke('devices.list', {})).devices[0]!.device_id;
}

test('a phone with remote rights opens on what waits, approves a command seen in full, answers a question, survives a reload and a dropped socket, and shows nothing once revoked', async ({
  page,
}) => {
  const deviceId = await pair(page, true);
  const remote = page.locator('#remote');
  await expect(remote).toBeVisible();
  await expect(remote.getByText('Nothing is waiting on you.')).toBeVisible();

  // The agent asks to run a command: the phone is told, and shows it first, in full.
  const first = await sessionRunning('echo deployed-from-the-phone', 'Deploy the docs');
  const card = page.getByRole('article', { name: 'Approval: Run: echo deployed-from-the-phone' });
  await expect(card).toBeVisible();
  await expect(card.locator('.detail')).toContainText('$ echo deployed-from-the-phone');
  await expect(card.locator('.detail')).toContainText('cwd:');
  const approve = card.getByRole('button', { name: 'Approve' });
  // Waiting items come first: the decision is on the first screen, no scrolling.
  await expect(approve).toBeEnabled(); // the page checked the approval hash
  await expect(approve).toBeInViewport();
  await expect(card.getByRole('button', { name: 'Deny' })).toBeInViewport();
  await expect(page.locator('#remote-sessions')).toContainText('Waiting on you');
  await expect(page).toHaveTitle('(1) Mewbo phone');
  await shoot(page, 'phone-remote-waiting');
  const before = (await events(first)).length;

  await approve.tap();
  await expect(card.locator('.item-status')).toHaveText('Approved. The agent continues.');
  // The run continues on the desktop: the command runs, the agent answers, the item leaves.
  await expect
    .poll(async () =>
      (await events(first)).slice(before).some((e) => e.type === 'run_state' && e.state === 'idle'),
    )
    .toBe(true);
  const log = await events(first);
  expect(log.find((e) => e.type === 'approval_decision')).toMatchObject({
    decision: 'allow',
    via: { device_id: deviceId, device_name: 'Pixel in the garden' },
  });
  expect(JSON.stringify(log.filter((e) => e.type === 'tool_result'))).toContain(
    'deployed-from-the-phone',
  );
  await expect(card).toHaveCount(0);
  await expect(remote.getByText('Nothing is waiting on you.')).toBeVisible();
  const row = page
    .locator('.session', { hasText: 'please run echo deployed' })
    .or(page.locator('.session', { hasText: 'Deploy the docs' }));
  await expect(row.locator('.badge')).toHaveText('Done');
  await row.locator('.session-head').tap();
  await expect(row.locator('.conversation')).toContainText('Ran echo deployed-from-the-phone.');
  // A short message to the session from the phone: the agent gets it as the user's message.
  fake.script.push({ text: 'Will do: docs go out at noon.' });
  await row.getByLabel('Message to this session').fill('ship the docs at noon');
  await row.getByRole('button', { name: 'Send' }).tap();
  await expect(row.locator('.conversation')).toContainText('Will do: docs go out at noon.');
  await expect(row.locator('.conversation')).toContainText('You (Pixel in the garden)');
  expect(
    (await events(first)).find(
      (e) => e.type === 'user_message' && e.text === 'ship the docs at noon',
    ),
  ).toMatchObject({ via: { device_name: 'Pixel in the garden' } });
  await shoot(page, 'phone-remote-conversation');

  // The phone slept and its browser dropped the page: it comes back on its stored token, on the
  // remote view, and still works.
  await page.reload();
  await expect(page.locator('#state')).toContainText('Connected as');
  await expect(remote).toBeVisible();
  // The desktop drops the socket (pairing off and on): the page reconnects by itself.
  await invoke('devices.disablePairing', {});
  await expect(page.locator('#state')).toContainText('Lost the connection');
  await invoke('devices.enablePairing', {});
  await expect(page.locator('#state')).toContainText('Connected as', { timeout: 15_000 });

  // A question, answered from the phone.
  fake.script.push(
    {
      toolCalls: [
        {
          name: 'ask_user_question',
          args: {
            questions: [
              {
                header: 'Target',
                question: 'Where should the docs go?',
                options: [
                  { label: 'Staging', description: 'try it first' },
                  { label: 'Production', description: '' },
                ],
              },
            ],
          },
        },
      ],
    },
    { text: 'Deploying to staging.' },
  );
  const second = (await invoke('sessions.create', { project: 'api' })).session.id;
  await invoke('sessions.send', {
    id: second,
    text: 'deploy the docs somewhere',
    capabilities: ['generative_ui', 'ask_user', 'approvals'],
  });
  const question = page.getByRole('article', { name: 'Question: Where should the docs go?' });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Answer' })).toBeInViewport();
  await question.getByLabel('Staging').check();
  await shoot(page, 'phone-remote-question');
  await question.getByRole('button', { name: 'Answer' }).tap();
  await expect
    .poll(async () => (await events(second)).find((e) => e.type === 'question_answer'))
    .toMatchObject({ via: { device_name: 'Pixel in the garden' } });
  await expect(question).toHaveCount(0);

  // Another approval is waiting when the user revokes the right on the desktop: it leaves the
  // page at once, and the phone, still paired, shows no remote view after reconnecting.
  await sessionRunning('echo never-approved', 'Clean up');
  const pending = page.getByRole('article', { name: 'Approval: Run: echo never-approved' });
  await expect(pending).toBeVisible();
  await invoke('devices.setRights', { device_id: deviceId, remote: false });
  await expect(page.locator('#remote-items .item')).toHaveCount(0);
  await expect(remote).toBeHidden();
  await expect(page.locator('#remote-sessions li')).toHaveCount(0);
  await expect(page).toHaveTitle('Mewbo phone');
  await expect(page.locator('#state')).toContainText('Connected as', { timeout: 15_000 });
  await expect(page.locator('#tools-section')).toBeVisible();
  await expect(remote).toBeHidden();
  await shoot(page, 'phone-remote-revoked');
});

test('a phone paired without remote rights shows no remote view until the Remote switch is turned on; with Screen control on it says it still cannot see the screen', async ({
  page,
}) => {
  const deviceId = await pair(page, false);
  await sessionRunning('echo not-for-phones', 'Private');
  await expect(page.locator('#tools-section')).toBeVisible();
  await expect(page.locator('#remote')).toBeHidden();
  await expect(page.locator('.item')).toHaveCount(0);

  const note = page.locator('#screen-note');
  await expect(note).toContainText('browsers do not allow');
  await invoke('devices.setRights', { device_id: deviceId, screen_control: true });
  await expect(note).toContainText('Screen control is on for this phone on the desktop');
  await shoot(page, 'phone-screen-control-on');
  const tools = (await invoke('devices.list', {})).devices[0]!.tools.map((t) => t.tool_id);
  expect(tools.filter((id) => id.startsWith('device_screen_'))).toEqual([]);
  await invoke('devices.setRights', { device_id: deviceId, screen_control: false });
  await expect(note).not.toContainText('Screen control is on');

  // Remote granted later with the switch: the remote view appears without a reconnect.
  await invoke('devices.setRights', { device_id: deviceId, remote: true });
  await expect(page.locator('#remote')).toBeVisible();
  await expect(
    page.getByRole('article', { name: 'Approval: Run: echo not-for-phones' }),
  ).toBeVisible();
});

/** A screenshot in light and in dark, at the phone's size. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('with an MCP server', () => {
  test.use({ billing: true });
  test("an MCP server's form is answered on the phone: its typed fields, checked there and on the desktop", async ({
    page,
  }) => {
    const deviceId = await pair(page, true);
    fake.script.push(
      {
        toolCalls: [
          {
            name: 'mcp__billing__elicit',
            args: { message: 'Where should the invoice go?', schema: JSON.stringify(BILLING_FORM) },
          },
        ],
      },
      { text: 'Billing is set up.' },
    );
    const id = (await invoke('sessions.create', { project: 'api' })).session.id;
    await invoke('sessions.send', {
      id,
      text: 'set up billing',
      capabilities: ['generative_ui', 'ask_user', 'approvals'],
    });
    const card = page.getByRole('article', { name: 'billing asks: Where should the invoice go?' });
    await expect(card).toBeVisible();
    await expect(card.getByRole('spinbutton', { name: 'Seats' })).toHaveValue('2');
    await card.getByRole('textbox', { name: 'Invoice email' }).fill('not an address');
    await card.getByLabel('Business').check();
    await shoot(page, 'phone-remote-elicitation');
    await card.getByRole('button', { name: 'Submit' }).tap();
    await expect(card.locator('.item-status')).toHaveText(
      'Invoice email must be an email address (name@example.com)',
    );
    await card.getByRole('textbox', { name: 'Invoice email' }).fill('ann@example.com');
    await card.getByRole('button', { name: 'Submit' }).tap();
    await expect(card.locator('.item-status')).toHaveText('Sent to the server.');
    await expect
      .poll(async () => (await events(id)).find((e) => e.type === 'elicitation_answer'))
      .toMatchObject({
        action: 'accept',
        content: { email: 'ann@example.com', seats: 2, plan: 'business', paper: false },
        via: { device_id: deviceId, device_name: 'Pixel in the garden' },
      });
    await expect
      .poll(async () => JSON.stringify((await events(id)).filter((e) => e.type === 'tool_result')))
      .toContain('ann@example.com');
    await expect(card).toHaveCount(0);
  });
});

test('when a session starts waiting and no desktop window is focused, the phone shows a notification and vibrates', async ({
  page,
  context,
}) => {
  // Headless Chromium shows no system notifications: record what the page asks the browser for.
  await context.addInitScript(() => {
    const w = window as unknown as {
      shown: { title: string; body?: string }[];
      vibrations: unknown[];
    };
    w.shown = [];
    w.vibrations = [];
    class RecordedNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        w.shown.push({ title, body: options?.body });
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { value: RecordedNotification });
    navigator.vibrate = (pattern: VibratePattern) => {
      w.vibrations.push(pattern);
      return true;
    };
  });
  await pair(page, true);
  // The person lets the page notify them (the button probes with a first notification).
  await page.getByRole('button', { name: 'Notify me when a session waits' }).tap();
  await expect(page.getByRole('button', { name: 'Notify me when a session waits' })).toBeHidden();

  await sessionRunning('echo notify-me', 'Nightly build');
  await expect(page.getByRole('article', { name: 'Approval: Run: echo notify-me' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shown: unknown[] }).shown))
    .toContainEqual({
      title: 'Mewbo needs your approval',
      body: 'Nightly build: Run: echo notify-me',
    });
  expect(
    await page.evaluate(() => (window as unknown as { vibrations: unknown[] }).vibrations.length),
  ).toBeGreaterThan(0);
});

test.describe('on a Pixel 7', () => {
  // Its descriptor less the browser type, which a describe group cannot set.
  const { defaultBrowserType: _browser, ...pixel7 } = devices['Pixel 7'];
  test.use(pixel7);

  test('an alarm prompt, then a text prompt, then an approval: each tap completes, and the app links never take the page away', async ({
    page,
  }) => {
    // A page that navigates itself to an intent: or sms: link is leaving: Chromium fires its
    // beforeunload, and where no app takes the link it holds the tab behind a prompt that ignores
    // every later tap. The page hands the link to a new browsing context instead.
    const left: string[] = [];
    page.on('request', (r) => {
      if (r.frame() === page.mainFrame() && !r.url().startsWith('https:')) left.push(r.url());
    });
    await pair(page, true);
    await expect
      .poll(async () => (await invoke('devices.list', {})).devices[0]!.tools.map((t) => t.tool_id))
      .toEqual(expect.arrayContaining(['device_set_alarm', 'device_send_sms']));
    fake.script.push(
      {
        toolCalls: [
          {
            name: 'device_set_alarm',
            args: { hour: 6, minute: 45, label: 'Catch the 7:10 train' },
          },
        ],
      },
      {
        toolCalls: [
          { name: 'device_send_sms', args: { to: '+33 6 12 34 56 78', body: 'On the 7:10' } },
        ],
      },
      { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo packed' } }] },
      { text: 'Alarm, text and bag: done.' },
    );
    const id = (await invoke('sessions.create', { project: 'api' })).session.id;
    await invoke('sessions.send', {
      id,
      text: 'wake me at 6:45 for the train, tell Anna, then pack',
      capabilities: ['generative_ui', 'ask_user', 'approvals'],
    });

    // Ask mode: the alarm is not set up on the phone until the person approves it.
    const alarmApproval = page.locator('.item.approval', { hasText: 'device_set_alarm' });
    await expect(alarmApproval.locator('.detail')).toContainText('Catch the 7:10 train');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await alarmApproval.getByRole('button', { name: 'Approve' }).tap();
    const alarm = page.getByRole('alertdialog', { name: 'The agent asks: Set an alarm' });
    await expect(alarm).toContainText('06:45');
    await shoot(page, 'phone-remote-alarm');
    await alarm.getByRole('link', { name: 'Open Clock to set it' }).tap();
    await expect(alarm).toContainText('The agent was told you tapped the link');
    expect(left).toEqual([]);

    // The text comes next, on the same page: its approval and its link still take taps.
    const smsApproval = page.locator('.item.approval', { hasText: 'device_send_sms' });
    await expect(smsApproval.locator('.detail')).toContainText('On the 7:10');
    await smsApproval.getByRole('button', { name: 'Approve' }).tap();
    const sms = page.getByRole('alertdialog', { name: 'The agent asks: Send a text' });
    await expect(sms).toContainText('+33612345678');
    await sms.getByRole('link', { name: 'Open Messages to send it' }).tap();
    await expect(sms).toContainText('The agent was told you tapped the link');

    // And last an approval of a command.
    const shell = page.getByRole('article', { name: 'Approval: Run: echo packed' });
    await shell.getByRole('button', { name: 'Approve' }).tap();
    await expect(shell.locator('.item-status')).toHaveText('Approved. The agent continues.');
    await expect
      .poll(async () =>
        (await events(id)).some((e) => e.type === 'run_state' && e.state === 'idle'),
      )
      .toBe(true);
    const log = await events(id);
    expect(log.filter((e) => e.type === 'approval_decision')).toHaveLength(3);
    expect(
      log.filter((e) => e.type === 'approval_decision').map((e) => e.via?.device_name),
    ).toEqual(['Pixel in the garden', 'Pixel in the garden', 'Pixel in the garden']);
    expect(log.filter((e) => e.type === 'device_tool_result')).toMatchObject([
      { status: 'ok', result: { prompt_shown: true, tapped: true, hour: 6, minute: 45 } },
      { status: 'ok', result: { prompt_shown: true, tapped: true, to: '+33612345678' } },
    ]);
    expect(JSON.stringify(log.filter((e) => e.type === 'tool_result'))).toContain('packed');
    // The page itself never went to either app link.
    expect(left).toEqual([]);
    await alarm.getByRole('button', { name: 'Close' }).tap();
    await expect(alarm).toBeHidden();
  });
});

test('an edit shows its whole diff at 360 px without sideways scrolling, and a deny from the phone carries its reason', async ({
  page,
}) => {
  const long = `export const ALLOWED_ORIGINS = ['https://docs.example.com', 'https://staging.docs.example.com'];`;
  const file = join(projectDir, 'config.ts');
  writeFileSync(file, `// settings\n${long}\nexport const PORT = 3000;\n`);
  await pair(page, true);
  fake.script.push(
    {
      toolCalls: [
        {
          name: 'file_edit_tool',
          args: {
            file_path: 'config.ts',
            old_string: long,
            new_string: `export const ALLOWED_ORIGINS = ['*']; // ${'wide-open-'.repeat(12)}`,
          },
        },
      ],
    },
    { text: 'Understood, I will leave the origins alone.' },
  );
  const id = (await invoke('sessions.create', { project: 'api' })).session.id;
  await invoke('sessions.send', {
    id,
    text: 'open up CORS',
    capabilities: ['generative_ui', 'ask_user', 'approvals'],
  });
  const card = page.locator('.item.approval', { hasText: 'config.ts' });
  await expect(card).toBeVisible();
  // The whole diff, its lines marked as added and removed.
  await expect(card.locator('.detail .del')).toContainText("'https://staging.docs.example.com'");
  await expect(card.locator('.detail .add')).toContainText('wide-open-'.repeat(12));
  await expect(card.getByRole('button', { name: 'Deny' })).toBeInViewport();
  // Readable at 360 px: nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await shoot(page, 'phone-remote-diff');

  await card.getByLabel('Reason for denying').fill('keep the list of origins');
  await card.getByRole('button', { name: 'Deny' }).tap();
  await expect(card.locator('.item-status')).toHaveText('Denied. The agent was told.');
  await expect
    .poll(async () => (await events(id)).find((e) => e.type === 'approval_decision'))
    .toMatchObject({ decision: 'deny', reason: 'keep the list of origins' });
  expect(readFileSync(file, 'utf8')).toContain(long);
});

test('an approval too large to send whole offers only Deny on the phone', async ({ page }) => {
  await pair(page, true);
  // Over the 96 KiB the desktop sends per item: the phone gets it cut.
  const command = `echo ${'a'.repeat(100 * 1024)}`;
  fake.script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command } }] },
    { text: 'Fine, not running it.' },
  );
  const id = (await invoke('sessions.create', { project: 'api' })).session.id;
  await invoke('sessions.send', {
    id,
    text: 'print a lot of a',
    capabilities: ['generative_ui', 'ask_user', 'approvals'],
  });
  const card = page.locator('.item.approval');
  await expect(card).toBeVisible();
  await expect(card).toContainText('Too large to approve from the phone');
  await expect(card.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Deny' })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await shoot(page, 'phone-remote-too-large');
  await card.getByRole('button', { name: 'Deny' }).tap();
  await expect(card.locator('.item-status')).toHaveText('Denied. The agent was told.');
  await expect
    .poll(async () => (await events(id)).find((e) => e.type === 'approval_decision'))
    .toMatchObject({ decision: 'deny', via: { device_name: 'Pixel in the garden' } });
});

test.describe('with an external ACP agent', () => {
  test.use({ agentScript: { turns: [[PUSH_PERMISSION, say('Pushed.')]] } });
  test("an external agent's permission request is answered on the phone with one of the agent's own options", async ({
    page,
  }) => {
    const deviceId = await pair(page, true);
    const id = (await invoke('sessions.create', { project: 'api', agent: 'scripted' })).session.id;
    await invoke('sessions.send', { id, text: 'push it', capabilities: ['approvals'] });
    const card = page.getByRole('article', { name: 'Approval: Push the branch' });
    await expect(card).toBeVisible();
    await expect(card.locator('.detail')).toContainText('"command": "git push"');
    // The agent's choices, with its labels, in its order, where Approve / Deny would be.
    await expect(card.locator('.actions button')).toHaveText([
      'Allow once',
      'Always allow pushes',
      'Reject',
    ]);
    const always = card.getByRole('button', { name: 'Always allow pushes' });
    await expect(always).toBeEnabled(); // the page checked the approval hash
    await expect(always).toBeInViewport();
    await shoot(page, 'phone-remote-agent-options');
    await always.tap();
    await expect(card.locator('.item-status')).toHaveText(
      'Sent “Always allow pushes”. The agent was told.',
    );
    // The agent is answered with that option, and the decision names it and the phone.
    await expect
      .poll(
        () =>
          readFileSync(agentRecord, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { step?: string; result?: unknown })
            .find((r) => r.step === 'permission')?.result,
      )
      .toEqual({ outcome: { outcome: 'selected', optionId: 'always' } });
    await expect
      .poll(async () => (await events(id)).find((e) => e.type === 'approval_decision'))
      .toMatchObject({
        decision: 'allow',
        option: 'always',
        via: { device_id: deviceId, device_name: 'Pixel in the garden' },
      });
    await expect(card).toHaveCount(0);
  });
});
