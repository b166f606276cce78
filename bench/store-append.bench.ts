import {
  mkdtempSync,
  rmSync,
  openSync,
  writeSync,
  fdatasyncSync,
  closeSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../electron/host/store/event-log';
import { sessionEventBodySchema } from '../shared/protocol/events';
import { report, timed } from './report';

// Event append throughput with fsync, against raw appends of the same bytes with the same fsync,
// and replay of 100k events against raw read + JSON.parse of the same file.

const SEQUENTIAL = 2_000;
const BURST = 20_000;
const REPLAY = 100_000;

const body = (i: number) => ({
  type: 'user_message' as const,
  text: `message number ${i} with some text in it`,
  message_id: `m_${i}`,
});
const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-store-'));

try {
  // One at a time: every event waits for its own fsync.
  const seqLog = await EventLog.open(join(dir, 'seq.jsonl'));
  const seq = await timed(async () => {
    for (let i = 0; i < SEQUENTIAL; i++) await seqLog.append(body(i));
  });
  await seqLog.close();
  const lines = readFileSync(join(dir, 'seq.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l + '\n');
  const raw = await timed(() => {
    const fd = openSync(join(dir, 'raw.jsonl'), 'a');
    for (const l of lines) {
      writeSync(fd, l);
      fdatasyncSync(fd);
    }
    closeSync(fd);
  });
  report(
    'append, one at a time (fsync each)',
    SEQUENTIAL / (seq.ms / 1000),
    'events/s',
    SEQUENTIAL / (raw.ms / 1000),
    'events/s',
    'raw append+fdatasync of the same bytes',
  );

  // A burst: appends in flight together share one fsync per batch (group commit).
  const burstLog = await EventLog.open(join(dir, 'burst.jsonl'));
  const burst = await timed(() =>
    Promise.all(Array.from({ length: BURST }, (_, i) => burstLog.append(body(i)))),
  );
  await burstLog.close();
  // The same work done the shortest way: each of the 20k bodies checked against the same schema
  // and serialized with its seq and ts (what an append must do before its bytes exist), then all of
  // them written with one write and one fdatasync. Writing bytes prepared before the clock starts
  // would leave out the work every append does.
  const bodies = Array.from({ length: BURST }, (_, i) => body(i));
  const rawBurst = await timed(() => {
    const lines: string[] = [];
    for (let i = 0; i < bodies.length; i++) {
      const checked = sessionEventBodySchema.parse(bodies[i]);
      lines.push(JSON.stringify({ ...checked, seq: i, ts: Date.now() }) + '\n');
    }
    const fd = openSync(join(dir, 'raw-burst.jsonl'), 'a');
    writeSync(fd, lines.join(''));
    fdatasyncSync(fd);
    closeSync(fd);
  });
  report(
    'append, burst of 20k (group commit)',
    BURST / (burst.ms / 1000),
    'events/s',
    BURST / (rawBurst.ms / 1000),
    'events/s',
    'validate + serialize each, one write+fdatasync',
  );

  // Replay: a 100k-event log opened (parsed and validated) vs raw read + JSON.parse per line.
  const big = join(dir, 'replay.jsonl');
  writeFileSync(
    big,
    Array.from({ length: REPLAY }, (_, i) => JSON.stringify({ ...body(i), seq: i, ts: 1 })).join(
      '\n',
    ) + '\n',
  );
  const replay = await timed(() => EventLog.recover(big));
  const rawReplay = await timed(() =>
    readFileSync(big, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown),
  );
  report('replay of 100k events', replay.ms, 'ms', rawReplay.ms, 'ms', 'raw readFile + JSON.parse');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
