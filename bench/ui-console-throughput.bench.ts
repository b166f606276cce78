import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import headless from '@xterm/headless';
import { FakeAnthropic } from '../test/helpers/fake-anthropic';
import { tempDir } from '../test/helpers/temp';
import { requireBuild, serve } from './ui-host';
import { report } from './report';

// Shell output into a visible console, end to end: a background shell started by a scripted
// model, its output through the ring buffer, batched frames, the WebSocket, ack flow control and
// xterm's DOM renderer in Chromium. The shell waits for a line typed into the console before it
// prints, so the console is attached when the clock starts and nothing is evicted unseen.
// References in the same run: the same command into a pipe read by Node (the producer alone), and
// @xterm/headless parsing the same bytes (xterm without drawing).

const CHARS = 8_000_000;
const LINE = 99; // + newline: 100 characters a line
const PRODUCE = `head -c ${CHARS} /dev/zero | tr '\\0' x | fold -w ${LINE}`;
const MARKER = 'END-OF-OUTPUT';
// @xterm/headless is CommonJS: its named exports are not visible to Node's ESM loader.
const { Terminal } = headless;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The host's frame size (shells/constants.ts STREAM_BATCH_MAX_CHARS): headless gets the same chunks. */
const CHUNK = 200_000;

requireBuild();

async function producerRate(): Promise<{ ms: number; chars: number; text: string }> {
  const t0 = performance.now();
  const child = spawn('sh', ['-c', PRODUCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const parts: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => parts.push(d));
  await new Promise((r) => child.on('close', r));
  const text = Buffer.concat(parts).toString();
  return { ms: performance.now() - t0, chars: text.length, text };
}

async function headlessRate(text: string): Promise<number> {
  const term = new Terminal({
    cols: 100,
    rows: 40,
    scrollback: 10_000,
    allowProposedApi: true,
    convertEol: true,
  });
  const t0 = performance.now();
  for (let i = 0; i < text.length; i += CHUNK) {
    const chunk = text.slice(i, i + CHUNK);
    await new Promise<void>((r) => term.write(chunk, r));
  }
  const ms = performance.now() - t0;
  term.dispose();
  return ms;
}

const home = tempDir('mewbo-bench-console-');
const project = tempDir('mewbo-bench-console-proj-');
const fake = await FakeAnthropic.start();
fake.script.push(
  {
    toolCalls: [
      {
        name: 'aider_shell_tool',
        args: { command: `read go; ${PRODUCE}; echo ${MARKER}; sleep 60`, run_in_background: true },
      },
    ],
  },
  { text: 'Started.' },
);
mkdirSync(join(home.dir, 'configs'), { recursive: true });
writeFileSync(
  join(home.dir, 'configs', 'app.json'),
  JSON.stringify({ permission_mode: 'auto', projects: { bench: { path: project.dir } } }),
);
const host = await serve(home.dir, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.url);
  await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
  await page.getByText('Connecting to the host').waitFor({ state: 'detached' });
  await page.keyboard.press('Control+P');
  await page.keyboard.type('bench');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Produce output');
  await page.getByRole('button', { name: 'Send' }).click();
  const con = page.getByRole('region', { name: /^Console: read go/ });
  await con.getByRole('status', { name: /Status: running/ }).waitFor({ timeout: 20_000 });
  const input = con.getByRole('textbox', { name: /^Input to/ });
  await input.fill('go');

  const t0 = Date.now();
  await input.press('Enter');
  await page.waitForFunction(
    (marker) => document.querySelector('.console .xterm-rows')?.textContent?.includes(marker),
    MARKER,
    { timeout: 120_000, polling: 'raf' },
  );
  const consoleMs = Date.now() - t0;
  const missed = await con
    .locator('.console-note')
    .textContent()
    .catch(() => null);

  const produced = await producerRate();
  const headlessMs = await headlessRate(produced.text);
  const mb = (chars: number, ms: number) => chars / 1e6 / (ms / 1000);
  report(
    `shell output into a visible console (${(CHARS / 1e6).toFixed(0)} M characters)`,
    mb(CHARS, consoleMs),
    'M chars/s',
    mb(produced.chars, produced.ms),
    'M chars/s',
    'the same command into a pipe read by Node',
  );
  report(
    '  the same, against xterm parsing without drawing',
    mb(CHARS, consoleMs),
    'M chars/s',
    mb(produced.chars, headlessMs),
    'M chars/s',
    '@xterm/headless write of the same bytes',
  );
  if (missed) console.log(`  note: ${missed}`);
} finally {
  await browser.close();
  await host.stop();
  await fake.close();
  home.cleanup();
  project.cleanup();
}
