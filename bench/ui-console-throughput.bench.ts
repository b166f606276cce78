import type { Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import headless from '@xterm/headless';
import { FakeAnthropic } from '../test/helpers/fake-anthropic';
import { tempDir } from '../test/helpers/temp';
import { withoutWebgl } from '../test/e2e/fixtures';
import { launchChromium, ROOT, requireBuild, serve } from './ui-host';
import { report } from './report';

// Shell output into a visible console, end to end: a background shell (a PTY) started by a
// scripted model, its output through the ring buffer, batched binary frames, the WebSocket, ack
// flow control and xterm's DOM renderer in Chromium (the page has no WebGL here, as where it is
// missing, so both sides draw with the DOM). The shell waits for a line typed into the console
// before it prints, so the console is attached when the clock starts and nothing is evicted.
// The reference for the goal (>= 0.6x) is xterm.js alone in the same Chromium, fed the same bytes
// over a plain WebSocket (#26 part 2, as the check from outside measured it): a page with just a
// Terminal of the same size and options, each message written as it arrives, until the last line
// is drawn. The same work: the same characters cross a loopback WebSocket into the page and are
// parsed and drawn by the same xterm with the same renderer; what the console adds (the PTY, the
// host, ack flow control, the app's page) is what the ratio is about. Until #26 the reference
// built the text inside the page and awaited each 64,000-character write before the next; that
// was not what the user's console does, but measured side by side (load average 25) it was within
// 15-20% of the WebSocket-fed one (8.3-8.9 s vs 10.2 s), so it was not what lifted this row to
// 1.07: the console's own figure falls far more with load than xterm alone (0.27 at load 31
// against this reference), and the runs that gave 0.66-1.15 were at load 1-9. Also for scale: the same
// command into a pipe read by Node (the producer alone), and @xterm/headless parsing the same bytes
// (xterm without drawing). What holds the console back is not found yet: profiled at load 25
// (Chromium's CPU profiler over one console run, after #26 part 2 made frames whole), the page's
// main thread idled 9.7 s of 25 s, with 10 s in Blink (layout, style, paint of the DOM rows) and
// 2.4 s in xterm's parser; raising the host's high watermark from 512,000 to 4,000,000
// characters left the console at 0.80-0.87 M chars/s either way, so the ack window is not it.
// What the resume point is: a log of the host's flow control over one run (load 20) showed the
// shell paused 16 times, 6.5 s of 18.9 s, and after each resume 100-400 ms of 4 KB PTY reads
// before 128,000 characters were back, so a page resumed at 128,000 unacked ran dry first; the
// shell now resumes at 384,000 (shells/constants.ts). The page stays the slower side: in later
// runs the shell was paused (the page behind by a watermark) 3.0 of 12.5 s and 12.4 of 19.9 s.

const CHARS = 16 * 1024 * 1024;
const LINE = 99; // + newline: 100 characters a line
const PRODUCE = `head -c ${CHARS} /dev/zero | tr '\\0' x | fold -w ${LINE}`;
const MARKER = 'END-OF-OUTPUT';
// @xterm/headless is CommonJS: its named exports are not visible to Node's ESM loader.
const { Terminal } = headless;
/** The host's frame size (shells/constants.ts STREAM_BATCH_MAX_CHARS): the references get the same chunks. */
const CHUNK = 64_000;

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

/**
 * A plain WebSocket server that, when a client says "go", sends the same characters the PTY
 * delivers (lines ending CR LF, then the marker) as binary messages of CHUNK bytes, as fast as
 * the socket takes them.
 */
async function plainFeed(): Promise<{ port: number; close(): Promise<void> }> {
  const lines = Math.ceil(CHARS / (LINE + 1));
  const bytes = Buffer.from(('x'.repeat(LINE) + '\r\n').repeat(lines) + MARKER + '\r\n');
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (ws) =>
    ws.once('message', () => {
      for (let i = 0; i < bytes.length; i += CHUNK) ws.send(bytes.subarray(i, i + CHUNK));
    }),
  );
  await new Promise((r) => server.once('listening', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * xterm.js alone in a page of the same browser, fed over a plain WebSocket: each message is
 * written to the terminal as it arrives, as a page that only shows a stream would; timed from
 * asking for the stream to the marker drawn.
 */
async function xtermAlone(
  page: Page,
  width: number,
  height: number,
  port: number,
): Promise<string> {
  await page.setContent(
    `<!doctype html><div id="t" style="width:${width}px;height:${height}px"></div>`,
  );
  await page.addStyleTag({ path: join(ROOT, 'node_modules/@xterm/xterm/css/xterm.css') });
  await page.addScriptTag({ path: join(ROOT, 'node_modules/@xterm/xterm/lib/xterm.js') });
  await page.addScriptTag({ path: join(ROOT, 'node_modules/@xterm/addon-fit/lib/addon-fit.js') });
  return page.evaluate(
    async ({ port, marker }) => {
      interface Term {
        cols: number;
        rows: number;
        open(e: HTMLElement | null): void;
        loadAddon(a: unknown): void;
        write(d: Uint8Array): void;
      }
      const w = window as unknown as {
        Terminal: new (o: object) => Term;
        FitAddon: { FitAddon: new () => { fit(): void } };
      };
      const term = new w.Terminal({
        scrollback: 10_000,
        convertEol: true,
        fontFamily: 'ui-monospace, "SF Mono", "JetBrains Mono", Menlo, Consolas, monospace',
        fontSize: 12,
        lineHeight: 1.15,
        allowProposedApi: true,
        cursorBlink: false,
      });
      const fit = new w.FitAddon.FitAddon();
      term.loadAddon(fit);
      term.open(document.getElementById('t'));
      fit.fit();
      const ws = new WebSocket(`ws://127.0.0.1:${port}`);
      ws.binaryType = 'arraybuffer';
      await new Promise((r) => (ws.onopen = r));
      ws.onmessage = (e) => term.write(new Uint8Array(e.data as ArrayBuffer));
      const t0 = performance.now();
      ws.send('go');
      await new Promise<void>((resolve) => {
        const check = () =>
          document.querySelector('.xterm-rows')?.textContent?.includes(marker)
            ? resolve()
            : requestAnimationFrame(check);
        check();
      });
      ws.close();
      return `${performance.now() - t0} ${term.cols}x${term.rows}`;
    },
    { port, marker: MARKER },
  );
}

const home = tempDir('mewbo-bench-console-');
const project = tempDir('mewbo-bench-console-proj-');
const fake = await FakeAnthropic.start();
fake.script.push(
  {
    toolCalls: [
      {
        name: 'aider_shell_tool',
        args: {
          command: `read go; ${PRODUCE}; echo ${MARKER}; sleep 60`,
          run_in_background: true,
          tty: true,
        },
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
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(withoutWebgl);
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

  // The reference terminal fills a box the size of the console's, so it draws as many cells.
  const box = (await con.locator('.xterm-host').boundingBox())!;
  const alone: number[] = [];
  let grid = '';
  const feed = await plainFeed();
  for (let i = 0; i < 3; i++) {
    const ref = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const [ms, g] = (await xtermAlone(ref, box.width, box.height, feed.port)).split(' ');
    alone.push(Number(ms));
    grid = g!;
    await ref.close();
  }
  await feed.close();
  const aloneMs = [...alone].sort((a, b) => a - b)[1]!;
  const produced = await producerRate();
  const headlessMs = await headlessRate(produced.text);
  const mb = (chars: number, ms: number) => chars / 1e6 / (ms / 1000);
  report(
    `visible console (DOM renderer) vs xterm.js alone, ${CHARS / 2 ** 20} Mi characters (goal >= 0.6)`,
    mb(CHARS, consoleMs),
    'M chars/s',
    mb(CHARS, aloneMs),
    'M chars/s',
    `xterm.js alone in the same Chromium, ${grid} (runs ${alone.map((x) => x.toFixed(0)).join(', ')} ms)`,
  );
  report(
    `  shell output into a visible console (${(CHARS / 1e6).toFixed(0)} M characters)`,
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
