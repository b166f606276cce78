import type { CDPSession, Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import headless from '@xterm/headless';
import { FakeAnthropic } from '../test/helpers/fake-anthropic';
import { tempDir } from '../test/helpers/temp';
import { withoutWebgl } from '../test/e2e/fixtures';
import { SCROLLBACK_LINES, TERMINAL_FONT } from '../renderer/src/consoles/constants';
import { launchChromium, ROOT, requireBuild, serve } from './ui-host';
import { report } from './report';

// Shell output into a visible console, as a user sees it: the real web UI (`mewbo serve`, the page
// logged in, a session whose background shell's console is open and on screen) drawing 16 Mi
// characters the shell prints, from the Enter that starts the shell printing until the last line
// is on screen: a PTY started by a scripted model, the ring buffer, batched binary frames, the
// WebSocket, ack flow control, the console's writes and xterm's DOM renderer in Chromium (the page
// has no WebGL here, as where it is missing, so both sides draw with the DOM).
// The reference for the goal (>= 0.6x, #26 part 2) is xterm.js alone in the same Chromium: a page
// holding just a Terminal of the same version, options and size (the console's box), fed the same
// bytes (the PTY's lines, CR LF, then the marker) over a plain WebSocket from a local server that
// sends them as fast as the socket takes them, each message written as it arrives, timed from
// asking for the stream until the last line is on screen. Why that is fair: the same characters
// cross a loopback WebSocket into a page of the same browser and are parsed and drawn by the same
// xterm with the same renderer in a box of the same size, the end is seen the same way on both
// sides (a check of the screen's rows each animation frame, timed inside the page), and the mouse
// rests at the middle of the terminal in both (a resting pointer makes Chromium hit-test after
// each layout, and xterm's scrollbar stops its hide timer while the pointer is over it). What the
// ratio is about is what the console adds: the PTY, the host, flow control and the app's page.
// The page is noisy to time on a loaded machine (the reference alone ran 3.8-12.7 s at load 16-26),
// so the two alternate: three rounds, each a console run then a reference run right after it, and
// the row is the round with the median ratio. Each run also reads the page's main-thread time
// (Chromium's TaskDuration): CPU spent per run, which the machine's load moves far less.
// What made this row read 1.07 once: its reference built the text inside the page and awaited each
// 64,000-character write before the next, and those runs were at load 1-9, where the console's
// figure holds up far better than under load (0.27 at load 31 against this reference).
// What holds the console back (#26 part 2, profiled at load 25-31 with Chromium's trace and CPU
// profiler through CDP, one run of each side): not the page's cost per frame. Both pages keep
// their main thread about 80% busy and spend about the same per drawn frame (22-37 vs 26-44 ms of
// style, layout, text shaping and paint for the 43 rebuilt rows) and the same parsing the bytes
// (~4 s); the console takes 2-3x as long because its bytes come slower (30 KB frames, the host's
// 16 ms batches, against xterm alone's whole stream queued at once), so in the extra time it
// draws 2-3x as many frames, and that is its extra CPU (the main-thread row). Gathering output for
// 50-100 ms per xterm write, one ack per write, and `contain: strict` on the terminal's box were
// tried and did not move either row beyond the noise, so they were not kept. A pointer left over
// the message box (where the last click was) made Chromium hit-test after every layout (0.8 s a
// run) where xterm alone had no pointer: the pointer now rests over the terminal in both pages.

const CHARS = 16 * 1024 * 1024;
const LINE = 99; // + newline: 100 characters a line
const PRODUCE = `head -c ${CHARS} /dev/zero | tr '\\0' x | fold -w ${LINE}`;
/** The line after the output of round r is `${MARKER}-r`: its arrival on screen ends the clock. */
const MARKER = 'END-OF-OUTPUT';
const ROUNDS = 3;
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
 * A plain WebSocket server that, when a client sends a marker, sends the same characters the PTY
 * delivers (lines ending CR LF, then the marker) as binary messages of CHUNK bytes, as fast as
 * the socket takes them.
 */
async function plainFeed(): Promise<{ port: number; close(): Promise<void> }> {
  const lines = Math.ceil(CHARS / (LINE + 1));
  const body = Buffer.from(('x'.repeat(LINE) + '\r\n').repeat(lines));
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (ws) =>
    ws.once('message', (marker: Buffer) => {
      const bytes = Buffer.concat([body, Buffer.from(`${String(marker)}\r\n`)]);
      for (let i = 0; i < bytes.length; i += CHUNK) ws.send(bytes.subarray(i, i + CHUNK));
    }),
  );
  await new Promise((r) => server.once('listening', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Milliseconds of the page's main thread spent in tasks so far (Chromium's TaskDuration). */
async function mainThreadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')!.value * 1000;
}

interface Run {
  ms: number;
  cpuMs: number;
}

/**
 * xterm.js alone in a fresh page of the same browser, in a box of the console's size with the
 * pointer resting at its middle, fed over a plain WebSocket: each message is written to the
 * terminal as it arrives, as a page that only shows a stream would; timed from asking for the
 * stream until the marker is on screen.
 */
async function xtermAlone(
  page: Page,
  box: { width: number; height: number },
  port: number,
  marker: string,
): Promise<Run & { grid: string }> {
  await page.setContent(
    `<!doctype html><body style="margin:0"><div id="t" style="width:${box.width}px;height:${box.height}px"></div>`,
  );
  await page.addStyleTag({ path: join(ROOT, 'node_modules/@xterm/xterm/css/xterm.css') });
  await page.addScriptTag({ path: join(ROOT, 'node_modules/@xterm/xterm/lib/xterm.js') });
  await page.addScriptTag({ path: join(ROOT, 'node_modules/@xterm/addon-fit/lib/addon-fit.js') });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const ws = await page.evaluateHandle(
    async ({ port, font, scrollback }) => {
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
        term: Term;
      };
      // The console's options (consoles/console-entry.ts, its font and scrollback from
      // consoles/constants.ts), bar its theme's colours.
      const term = new w.Terminal({
        scrollback,
        convertEol: true,
        ...font,
        allowProposedApi: true,
        cursorBlink: false,
      });
      const fit = new w.FitAddon.FitAddon();
      term.loadAddon(fit);
      term.open(document.getElementById('t'));
      fit.fit();
      w.term = term;
      const ws = new WebSocket(`ws://127.0.0.1:${port}`);
      ws.binaryType = 'arraybuffer';
      await new Promise((r) => (ws.onopen = r));
      ws.onmessage = (e) => term.write(new Uint8Array(e.data as ArrayBuffer));
      return ws;
    },
    { port, font: TERMINAL_FONT, scrollback: SCROLLBACK_LINES },
  );
  await page.mouse.move(box.width / 2, box.height / 2);
  const cpu0 = await mainThreadMs(cdp);
  const ms = await ws.evaluate((ws, marker) => {
    const t0 = performance.now();
    ws.send(marker);
    return new Promise<number>((resolve) => {
      const check = () =>
        document.querySelector('.xterm-rows')?.textContent?.includes(marker)
          ? resolve(performance.now() - t0)
          : requestAnimationFrame(check);
      check();
    });
  }, marker);
  const cpuMs = (await mainThreadMs(cdp)) - cpu0;
  const grid = await page.evaluate(() => {
    const t = (window as unknown as { term: { cols: number; rows: number } }).term;
    return `${t.cols}x${t.rows}`;
  });
  await ws.evaluate((ws) => ws.close());
  return { ms, cpuMs, grid };
}

const home = tempDir('mewbo-bench-console-');
const project = tempDir('mewbo-bench-console-proj-');
const fake = await FakeAnthropic.start();
const rounds = Array.from(
  { length: ROUNDS },
  (_, i) => `read go; ${PRODUCE}; echo ${MARKER}-${i + 1}`,
);
fake.script.push(
  {
    toolCalls: [
      {
        name: 'aider_shell_tool',
        args: {
          command: `${rounds.join('; ')}; sleep 60`,
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
const feed = await plainFeed();
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
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  // The reference terminal fills a box the size of the console's, so it draws as many cells.
  const box = (await con.locator('.xterm-host').boundingBox())!;

  const pairs: { console: Run; alone: Run }[] = [];
  let grid = '';
  let missed: string | null = null;
  for (let r = 1; r <= ROUNDS; r++) {
    const marker = `${MARKER}-${r}`;
    await input.fill('go');
    // Typing moved nothing; the pointer rests at the middle of the console's screen, as in the reference.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // The clock starts inside the page at the Enter that lets the shell print, and stops at the
    // first animation frame whose screen shows the marker, as in the reference.
    await input.evaluate((el) => {
      const w = window as unknown as { benchT0: number };
      el.addEventListener('keydown', () => (w.benchT0 = performance.now()), { once: true });
    });
    const cpu0 = await mainThreadMs(cdp);
    await input.press('Enter');
    const ms = await (
      await page.waitForFunction(
        (marker) =>
          document.querySelector('.console .xterm-rows')?.textContent?.includes(marker) &&
          performance.now() - (window as unknown as { benchT0: number }).benchT0,
        marker,
        { timeout: 180_000, polling: 'raf' },
      )
    ).jsonValue();
    const cpuMs = (await mainThreadMs(cdp)) - cpu0;
    missed ??= await con
      .locator('.console-note')
      .textContent({ timeout: 100 })
      .catch(() => null);

    const ref = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const alone = await xtermAlone(ref, box, feed.port, marker);
    await ref.close();
    grid = alone.grid;
    pairs.push({ console: { ms: ms as number, cpuMs }, alone });
  }
  const ratio = (p: (typeof pairs)[number]) => p.alone.ms / p.console.ms;
  const median = [...pairs].sort((a, b) => ratio(a) - ratio(b))[Math.floor(ROUNDS / 2)]!;
  const produced = await producerRate();
  const headlessMs = await headlessRate(produced.text);
  const mb = (chars: number, ms: number) => chars / 1e6 / (ms / 1000);
  const list = (f: (p: (typeof pairs)[number]) => number) =>
    pairs.map((p) => f(p).toFixed(0)).join(', ');
  report(
    `visible console (DOM renderer) vs xterm.js alone, ${CHARS / 2 ** 20} Mi characters (goal >= 0.6)`,
    mb(CHARS, median.console.ms),
    'M chars/s',
    mb(CHARS, median.alone.ms),
    'M chars/s',
    `xterm.js alone in the same Chromium, ${grid}, the median of ${ROUNDS} rounds (ratios ${pairs.map((p) => ratio(p).toFixed(2)).join(', ')}; console ${list((p) => p.console.ms)} ms, alone ${list((p) => p.alone.ms)} ms)`,
  );
  report(
    '  the page main thread per 16 Mi characters, console (lower is better)',
    median.console.cpuMs,
    'ms',
    median.alone.cpuMs,
    'ms',
    `xterm.js alone (console ${list((p) => p.console.cpuMs)} ms, alone ${list((p) => p.alone.cpuMs)} ms)`,
  );
  report(
    `  shell output into a visible console (${(CHARS / 1e6).toFixed(0)} M characters)`,
    mb(CHARS, median.console.ms),
    'M chars/s',
    mb(produced.chars, produced.ms),
    'M chars/s',
    'the same command into a pipe read by Node',
  );
  report(
    '  the same, against xterm parsing without drawing',
    mb(CHARS, median.console.ms),
    'M chars/s',
    mb(produced.chars, headlessMs),
    'M chars/s',
    '@xterm/headless write of the same bytes',
  );
  if (missed) console.log(`  note: ${missed}`);
} finally {
  await feed.close();
  await browser.close();
  await host.stop();
  await fake.close();
  home.cleanup();
  project.cleanup();
}
