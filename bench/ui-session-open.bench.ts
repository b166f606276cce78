import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireBuild, serve } from './ui-host';
import { tempDir } from '../test/helpers/temp';
import { longSessionBodies, seedSession } from '../test/e2e/seed-session';
import { report } from './report';

// Opening a 10,000-event session in the real UI (built renderer, `mewbo serve`, Debian Chromium),
// from the click in the sidebar to interactive: the newest message drawn and the message box
// focusable. References measured in the same run and the same page: JSON.parse of the same event
// lines (the floor any client pays), and fetching them over the protocol without drawing.

const EVENTS = 10_000;
const RUNS = 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

requireBuild();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const t = tempDir('mewbo-bench-ui-');
const seeded = seedSession(t.dir, 'Ten thousand events', longSessionBodies(EVENTS));
const lines = readFileSync(join(t.dir, 'sessions', seeded.id, 'events.jsonl'), 'utf8');
const lastText = /Done with step (\d+)/g;
let lastStep = '';
for (const m of lines.matchAll(lastText)) lastStep = m[1]!;

const host = await serve(t.dir);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const open: number[] = [];
  // The login link works once: the first visit logs the page in, later ones reload the app.
  await page.goto(host.url);
  for (let run = 0; run < RUNS; run++) {
    if (run > 0) await page.goto(host.origin);
    const button = page.getByRole('button', { name: /^Ten thousand events/ });
    await button.waitFor();
    const t0 = Date.now();
    await button.click();
    await page.getByText(`Done with step ${lastStep}.`).waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'Message' }).focus();
    open.push(Date.now() - t0);
  }

  // Reference 1: parse the same lines in the same page.
  const parseMs: number[] = await page.evaluate(
    ({ text, runs }) => {
      const out: number[] = [];
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        let n = 0;
        for (const line of text.split('\n'))
          if (line) n += (JSON.parse(line) as { seq: number }).seq >= 0 ? 1 : 0;
        out.push(performance.now() - t0 + (n < 0 ? 1 : 0));
      }
      return out;
    },
    { text: lines, runs: RUNS },
  );

  // Reference 2: the same pages over the protocol (sessions.open, 5,000 a page), nothing drawn.
  const fetchMs: number[] = await page.evaluate(
    async ({ wsUrl, id, runs }) => {
      const ws = new WebSocket(wsUrl);
      await new Promise((r) => (ws.onopen = r));
      let nextId = 1;
      const call = (params: unknown) =>
        new Promise<{ events: unknown[]; next: number }>((resolve) => {
          const id = nextId++;
          ws.onmessage = (m) => {
            const f = JSON.parse(String(m.data)) as {
              t: string;
              id: number;
              value: { events: unknown[]; next: number };
            };
            if (f.t === 'result' && f.id === id) resolve(f.value);
          };
          ws.send(JSON.stringify({ t: 'invoke', id, method: 'sessions.open', params }));
        });
      const out: number[] = [];
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        let from = 0;
        for (;;) {
          const page = await call({ id, from, limit: 5000 });
          from = page.next;
          if (page.events.length < 5000) break;
        }
        out.push(performance.now() - t0);
      }
      ws.close();
      return out;
    },
    { wsUrl: host.wsUrl, id: seeded.id, runs: RUNS },
  );

  report(
    `open ${EVENTS.toLocaleString('en-US')}-event session to interactive (median of ${RUNS})`,
    median(open),
    'ms',
    median(parseMs),
    'ms',
    'JSON.parse of the same lines in the page',
  );
  report(
    '  the same, against fetching its events over the protocol without drawing',
    median(open),
    'ms',
    median(fetchMs),
    'ms',
    'sessions.open pages over WebSocket',
  );
} finally {
  await browser.close();
  await host.stop();
  t.cleanup();
}
