import { devices, expect, test } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseConfig } from '../../electron/host/config/load-config';
import { DevicesService } from '../../electron/host/devices/devices-service';
import type { ToolContext } from '../../electron/host/tools/tool';
import type { SessionEventBody } from '../../shared/protocol/events';
import { tempDir } from '../helpers/temp';

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
