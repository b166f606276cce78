import { devices, expect as baseExpect, test } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseConfig } from '../../electron/host/config/load-config';
import { DevicesService } from '../../electron/host/devices/devices-service';
import type { ToolContext } from '../../electron/host/tools/tool';
import type { SessionEventBody } from '../../shared/protocol/events';
import { tempDir } from '../helpers/temp';

// Nine engineers share two cores: an outcome may take longer than the default 5 s to show.
const expect = baseExpect.configure({ timeout: 15_000 });

// The phone page in a phone-sized Chromium, against a real pairing listener (self-signed TLS):
// it pairs from the QR link, declares what the browser permits, and serves the agent's calls.

const root = fileURLToPath(new URL('../..', import.meta.url));
const SESSION = 's_phonee2e01';
const SCREENSHOTS = join(root, 'test-results', 'screenshots');

test.use({
  ...devices['Pixel 7'],
  // The listener's certificate is self-signed: a person accepts it once in the browser.
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--ignore-certificate-errors',
    ],
  },
});

let service: DevicesService;
let events: SessionEventBody[];
let temp: ReturnType<typeof tempDir>;

test.beforeEach(async () => {
  temp = tempDir('mewbo-phone-e2e-');
  const { buildPhonePage } = (await import(
    pathToFileURL(join(root, 'build', 'phone-page.mjs')).href
  )) as {
    buildPhonePage(o: { root: string; outdir: string }): Promise<string>;
  };
  const pageDir = await buildPhonePage({ root, outdir: join(temp.dir, 'phone') });
  events = [];
  service = await DevicesService.create({
    stateDir: join(temp.dir, 'state'),
    config: { pairing_enabled: false, host: '127.0.0.1', port: 0 },
    emit: (_sessionId, event) => {
      events.push(event);
    },
    rememberPairing: async () => undefined,
    pageDir,
  });
});

test.afterEach(async () => {
  await service.dispose();
  temp.cleanup();
});

function context(): ToolContext {
  return {
    root,
    sessionId: SESSION,
    agentId: 'root',
    signal: new AbortController().signal,
    config: parseConfig({}),
    services: { devices: service.hub },
    emit: async () => undefined,
  };
}

/** What the agent loop does: bind the session's tools, pick one, run it. */
async function agentCalls(name: string, args: Record<string, unknown> = {}) {
  await expect.poll(() => service.hub.toolsFor(SESSION).map((t) => t.name)).toContain(name);
  const tool = service.hub.toolsFor(SESSION).find((t) => t.name === name)!;
  return tool.run(context(), tool.parameters.parse(args));
}

test('the phone page pairs and serves a device_get_time call made through the DeviceHub', async ({
  page,
  context: browser,
}) => {
  const offer = await service.createOffer();
  await browser.grantPermissions(['geolocation'], { origin: offer.url.replace(/\/$/, '') });
  await browser.setGeolocation({ latitude: 48.8584, longitude: 2.2945, accuracy: 12 });

  await page.goto(offer.pairing_url);
  await expect(page.locator('#state')).toHaveText('Not paired with a desktop.');
  await page.screenshot({ path: join(SCREENSHOTS, 'phone-pair.png') });
  await expect(page.locator('#code')).toHaveValue(offer.code);
  await expect(page.locator('#fingerprint-hint')).toContainText(offer.fingerprint);
  await page.locator('#device-name').fill('Test Pixel');
  await page.getByRole('button', { name: 'Pair' }).tap();
  await expect(page.locator('#state')).toHaveText('Connected as “Test Pixel”.');
  // The code is used up: it leaves the address bar.
  expect(new URL(page.url()).hash).toBe('');

  const before = Date.now();
  const payload = await agentCalls('device_get_time');
  expect(payload).toMatchObject({ kind: 'device_result', tool_id: 'device_get_time' });
  const result = payload.result as { epoch_ms: number; iso: string; time_zone: string };
  expect(result.epoch_ms).toBeGreaterThanOrEqual(before - 60_000);
  expect(new Date(result.iso).getTime()).toBe(result.epoch_ms);
  expect(events.map((e) => e.type)).toEqual(['device_tool_call', 'device_tool_result']);
  await expect(page.locator('#activity')).toContainText('device_get_time: done');
  await page.screenshot({ path: join(SCREENSHOTS, 'phone-paired.png') });

  const [device] = service.listDevices();
  expect(device).toMatchObject({ name: 'Test Pixel', attached: true });
  const offered = device!.tools.map((t) => t.tool_id);
  // Granted location is offered; notifications and clipboard were never granted, so they are not.
  expect(offered).toEqual(
    expect.arrayContaining(['device_get_time', 'device_get_location', 'device_wake']),
  );
  expect(offered).not.toContain('device_notify');
  expect(offered).not.toContain('device_read_clipboard');
  expect(await agentCalls('device_get_location')).toMatchObject({
    result: { latitude: 48.8584, longitude: 2.2945 },
  });
});

test('a paired phone page comes back with its stored token after a reload and after a lost connection', async ({
  page,
}) => {
  const offer = await service.createOffer();
  await page.goto(offer.pairing_url);
  await page.getByRole('button', { name: 'Pair' }).tap();
  await expect(page.locator('#state')).toContainText('Connected as');
  const deviceId = service.listDevices()[0]!.device_id;

  await page.reload();
  await expect(page.locator('#state')).toContainText('Connected as');
  expect(await agentCalls('device_get_time')).toMatchObject({
    kind: 'device_result',
    device_id: deviceId,
  });

  // The desktop drops the phone (pairing off, then on): the page reconnects by itself.
  await service.disablePairing();
  await expect(page.locator('#state')).toContainText('Lost the connection');
  await service.enablePairing();
  await expect(page.locator('#state')).toContainText('Connected as', { timeout: 15_000 });
  expect(await agentCalls('device_get_time')).toMatchObject({
    kind: 'device_result',
    device_id: deviceId,
  });
  expect(service.listDevices()).toHaveLength(1);

  // Revoked on the desktop: the page forgets its token and asks for a new code.
  await service.revoke(deviceId);
  await expect(page.locator('#state')).toContainText('no longer paired');
  await expect(page.locator('#pair-form')).toBeVisible();
});

test('granted clipboard access and a tap add their tools, and the calls act on the page', async ({
  page,
  context: browser,
}) => {
  const offer = await service.createOffer();
  await browser.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: offer.url.replace(/\/$/, ''),
  });
  await page.goto(offer.pairing_url);
  await page.getByRole('button', { name: 'Pair' }).tap();
  await expect(page.locator('#state')).toContainText('Connected as');

  expect(await agentCalls('device_write_clipboard', { text: 'from the agent' })).toMatchObject({
    result: { written_chars: 14 },
  });
  expect(await agentCalls('device_read_clipboard')).toMatchObject({
    result: { text: 'from the agent' },
  });

  // The tap on "Pair" unlocked sound and vibration, so wake is offered; it takes over the screen.
  expect(await agentCalls('device_wake', { message: 'Build finished' })).toMatchObject({
    result: { shown: true },
  });
  await expect(page.locator('#wake-overlay')).toBeVisible();
  await expect(page.locator('#wake-text')).toHaveText('Build finished');
});

test('on Android the agent can ask for an alarm and a text: a prompt with the details and the app link, and the result says only whether it was tapped', async ({
  page,
}) => {
  const offer = await service.createOffer();
  await page.goto(offer.pairing_url);
  await page.getByRole('button', { name: 'Pair' }).tap();
  await expect(page.locator('#state')).toContainText('Connected as');
  // The page says it cannot capture or use the screen, and declares no screen tool.
  await expect(page.locator('#screen-note')).toContainText('browsers do not allow');

  const label = 'Stand-up; bring notes & 100% coffee ☕';
  const alarm = agentCalls('device_set_alarm', { hour: 7, minute: 5, label });
  const alarmPrompt = page.getByRole('alertdialog', { name: 'The agent asks: Set an alarm' });
  await expect(alarmPrompt).toBeVisible();
  await expect(alarmPrompt).toContainText('07:05');
  await expect(alarmPrompt).toContainText(label);
  const alarmLink = alarmPrompt.getByRole('link', { name: 'Open Clock to set it' });
  expect(await alarmLink.getAttribute('href')).toBe(
    'intent:#Intent;action=android.intent.action.SET_ALARM;' +
      'i.android.intent.extra.alarm.HOUR=7;i.android.intent.extra.alarm.MINUTES=5;' +
      `S.android.intent.extra.alarm.MESSAGE=${encodeURIComponent(label)};` +
      'B.android.intent.extra.alarm.SKIP_UI=false;end',
  );
  await page.screenshot({ path: join(SCREENSHOTS, 'phone-alarm-prompt.png') });
  await alarmLink.tap();
  expect(await alarm).toMatchObject({
    kind: 'device_result',
    tool_id: 'device_set_alarm',
    result: { prompt_shown: true, tapped: true, hour: 7, minute: 5, label },
  });
  // Never a claim the page cannot know: no "set"/"success" field, and the note says so.
  const alarmResult = (await alarm).result as Record<string, unknown>;
  expect(Object.keys(alarmResult).sort()).toEqual(
    ['hour', 'label', 'minute', 'note', 'prompt_shown', 'tapped'].sort(),
  );
  expect(alarmResult.note).toContain('cannot know whether they saved it');
  await expect(alarmPrompt).toContainText('The agent was told you tapped the link');
  await alarmPrompt.getByRole('button', { name: 'Close' }).tap();
  await expect(alarmPrompt).toBeHidden();

  const body = 'Running late?\nBack at 7 — body=x&to=+19005550000';
  const sms = agentCalls('device_send_sms', { to: '+33 6 12 34 56 78', body });
  const smsPrompt = page.getByRole('alertdialog', { name: 'The agent asks: Send a text' });
  await expect(smsPrompt).toContainText('+33612345678');
  expect(await smsPrompt.getByRole('link').getAttribute('href')).toBe(
    `sms:+33612345678?body=${encodeURIComponent(body)}`,
  );
  await smsPrompt.getByRole('button', { name: 'Not now' }).tap();
  expect(await sms).toMatchObject({
    result: { prompt_shown: true, tapped: false, to: '+33612345678', body },
  });
  await expect(smsPrompt).toBeHidden();

  // Bad input never reaches a prompt: the host checks the declared schema, the page its own rules.
  expect(
    await service.hub.call(SESSION, 'device_set_alarm', { hour: 24, minute: 0 }),
  ).toMatchObject({
    kind: 'error',
    code: 'invalid_args',
  });
  expect(
    await service.hub.call(SESSION, 'device_send_sms', { to: 'mom', body: 'hi' }),
  ).toMatchObject({
    kind: 'error',
    message: expect.stringContaining('to must be one phone number'),
    details: { device_code: 'invalid_args' },
  });
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  const offered = service.listDevices()[0]!.tools.map((t) => t.tool_id);
  expect(offered.filter((id) => id.startsWith('device_screen_'))).toEqual([]);
});

test.describe('on an iPhone', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });

  test('the alarm and text tools are not declared (their links only work on Android)', async ({
    page,
  }) => {
    const offer = await service.createOffer();
    await page.goto(offer.pairing_url);
    await page.getByRole('button', { name: 'Pair' }).tap();
    await expect(page.locator('#state')).toContainText('Connected as “iPhone”');
    await expect.poll(() => service.listDevices()[0]?.tools.length ?? 0).toBeGreaterThan(0);
    const offered = service.listDevices()[0]!.tools.map((t) => t.tool_id);
    expect(offered).toContain('device_get_time');
    expect(offered).not.toContain('device_set_alarm');
    expect(offered).not.toContain('device_send_sms');
  });
});
