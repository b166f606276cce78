import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, requireBuild, serve } from './ui-host';
import { tempDir } from '../test/helpers/temp';
import { longSessionBodies } from '../test/e2e/seed-session';
import { report } from './report';

// Opening a session in the real UI (built renderer, `mewbo serve`, Debian Chromium), from the click
// in the sidebar until its newest message is drawn and the message box is focusable. A
// 100,000-event session against a 2,000-event one made of the same turns, in the same page of the
// same run: both draw the same newest window, so the ratio is what the older history costs the
// user. Each session is opened once (its first open, no index beside the log yet).

const BIG = 100_000;
const SMALL = 2_000;
const RUNS = 3;

requireBuild();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Copies of one session; returns their titles and the last step's number. */
function seed(home: string, n: number, tag: string): { titles: string[]; lastStep: string } {
  // Whole turns: the log ends with the run idle, as a session someone returns to does (a log cut
  // off mid-run is loaded once on open to repair it, a different cost).
  const bodies = longSessionBodies(n);
  while (bodies.length && bodies[bodies.length - 1]!.type !== 'run_state') bodies.pop();
  const start = Date.now() - n * 1000;
  const text =
    bodies.map((b, seq) => JSON.stringify({ ...b, seq, ts: start + seq * 1000 })).join('\n') + '\n';
  let lastStep = '';
  for (const m of text.matchAll(/Done with step (\d+)/g)) lastStep = m[1]!;
  const titles = Array.from({ length: RUNS + 1 }, (_, c) => {
    const id = `s_ui${tag}${c}`;
    const dir = join(home, 'sessions', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'events.jsonl'), text);
    const title = `Bench ${tag} ${c}`;
    writeFileSync(
      join(dir, 'meta.json'),
      JSON.stringify({ id, title, project: null, root: null, created_at: start }),
    );
    return title;
  });
  return { titles, lastStep };
}

const t = tempDir('mewbo-bench-ui-');
const big = seed(t.dir, BIG, 'big');
const small = seed(t.dir, SMALL, 'small');
const host = await serve(t.dir);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // The login link works once: the first visit logs the page in, later ones reload the app.
  await page.goto(host.url);
  const open = async (title: string, lastStep: string) => {
    await page.goto(host.origin);
    const button = page.getByRole('button', { name: new RegExp(`^${title}`) });
    await button.waitFor();
    const t0 = Date.now();
    await button.click();
    await page.getByText(`Done with step ${lastStep}.`).waitFor({ timeout: 60_000 });
    await page.getByRole('textbox', { name: 'Message' }).focus();
    const ms = Date.now() - t0;
    // The host indexes a log after its first answer: let that finish before the next measurement.
    await new Promise((r) => setTimeout(r, 1500));
    return ms;
  };
  // Warm-up (not measured): the page's code and the host's paths.
  await open(small.titles[RUNS]!, small.lastStep);
  const b: number[] = [];
  const s: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    s.push(await open(small.titles[r]!, small.lastStep));
    b.push(await open(big.titles[r]!, big.lastStep));
  }
  report(
    'UI: open a 100k-event session until its newest message is drawn (first open) (goal <= 2x)',
    median(b),
    'ms',
    median(s),
    'ms',
    '2k-event session, same page',
  );
} finally {
  await browser.close();
  await host.stop();
  t.cleanup();
}
