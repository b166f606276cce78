import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { requireBuild, serve, type BenchHost } from './ui-host';
import { tempDir } from '../test/helpers/temp';
import { longSessionBodies } from '../test/e2e/seed-session';
import { report } from './report';
import { exchangeCode } from '../test/helpers/web-login';

// Opening a session over the protocol until its newest events reach the client: `mewbo serve`
// and a WebSocket client, `sessions.open` sent and its answer (snapshot + the newest 256 events)
// parsed. The 100,000-event session is compared with a 2,000-event one made of the same turns,
// opened the same way by the same host in the same run: the work that reaches the client is the
// same (one window of the same kind of events), so the ratio is what the older history costs.
// Twice: logs written before the index existed (no events.idx.json: their first open), then the
// same logs after a host restart (the index beside each log, written by the first run).

const BIG = 100_000;
const SMALL = 2_000;
// Ten measured opens of each size: one open takes ~10 ms, so a median of four swung 0.2-1.9x
// on a loaded machine.
const COPIES = 11;
const WINDOW = 200;

requireBuild();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function seedCopies(home: string, n: number, tag: string): string[] {
  const start = Date.now() - n * 1000;
  const text =
    idleSession(n)
      .map((b, seq) => JSON.stringify({ ...b, seq, ts: start + seq * 1000 }))
      .join('\n') + '\n';
  return Array.from({ length: COPIES }, (_, c) => {
    const id = `s_bench${tag}${c}`;
    const dir = join(home, 'sessions', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'events.jsonl'), text);
    writeFileSync(
      join(dir, 'meta.json'),
      JSON.stringify({ id, title: id, project: null, root: null, created_at: start }),
    );
    return id;
  });
}

/**
 * About `n` events of whole turns: the log ends with the run idle, as a session someone returns to
 * does (a log cut off mid-run is loaded once on open to repair it, a different cost).
 */
function idleSession(n: number) {
  const bodies = longSessionBodies(n);
  while (bodies.length && bodies[bodies.length - 1]!.type !== 'run_state') bodies.pop();
  return bodies;
}

async function connect(host: BenchHost): Promise<(id: string) => Promise<number>> {
  const cookie = await exchangeCode(host.url);
  const ws = new WebSocket(host.wsUrl, { headers: { cookie } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, (v: { events: { seq: number }[] }) => void>();
  ws.on('message', (data) => {
    const f = JSON.parse(String(data)) as { t: string; id: number; ok: boolean; value: never };
    if (f.t === 'result') waiting.get(f.id)?.(f.ok ? f.value : { events: [] });
  });
  return (id) =>
    new Promise((resolve, reject) => {
      const n = next++;
      const t0 = performance.now();
      waiting.set(n, (v) => {
        const ms = performance.now() - t0;
        if (v.events.length < WINDOW) reject(new Error(`${id}: only ${v.events.length} events`));
        else resolve(ms);
      });
      ws.send(JSON.stringify({ t: 'invoke', id: n, method: 'sessions.open', params: { id } }));
    });
}

const t = tempDir('mewbo-bench-open-');
try {
  const big = seedCopies(t.dir, BIG, 'big');
  const small = seedCopies(t.dir, SMALL, 'small');
  for (const phase of ['first open of a log written before the index', 'with its index']) {
    const host = await serve(t.dir);
    try {
      const open = await connect(host);
      // Warm the host's code paths on a session not measured.
      await open(small[0]!);
      const b: number[] = [];
      const s: number[] = [];
      // Each open is measured on an idle host: the indexing a first open leaves behind (after
      // its answer) must not land on the next measurement, whichever it is.
      const idle = () => new Promise((r) => setTimeout(r, 1500));
      for (let c = 1; c < COPIES; c++) {
        s.push(await open(small[c]!));
        await idle();
        b.push(await open(big[c]!));
        await idle();
      }
      report(
        `session open, 100k vs 2k events, newest ${WINDOW} reach the client (${phase}) (goal <= 2x)`,
        median(b),
        'ms',
        median(s),
        'ms',
        '2k-event session',
      );
    } finally {
      await host.stop();
    }
  }
} finally {
  t.cleanup();
}
