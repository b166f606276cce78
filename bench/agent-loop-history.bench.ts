import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host } from '../electron/host/host';
import { report } from './report';

// Does a step cost the same late in a long run as early on? One run of 1,500 steps through the
// real host: `agent.send` on a session of a project, the Anthropic provider (SDK, streaming) against
// a scripted local Messages server that answers each request 15 ms after it arrives with one tool
// call: a read_file of a different small file, then an edit of the file just read (file_edit_tool,
// in auto mode, so the turn's checkpoint bookkeeping runs too), and so on; then the real tool
// source, approval policy, dispatch, the tools and the fsync'ed session log. A step is the time
// between two requests reaching the server.
//
// The reference is the first 300 steps of the same run: they do the same per-step work (the same
// tool on a file of the same size, the same events appended, the same 15 ms answer), only with a
// short history behind them. So last 300 / first 300 is what a step pays for the history. It
// cannot be exactly 1: the request carries the whole conversation to the model, so its
// serialization and its bytes on the socket grow with the history by necessity (the last
// requests are ~100x the first ones' size); everything else should not.
//
// The server does constant work per request (it drains the body unparsed) so that only the
// host's cost grows; the last request is parsed after the run to check it held every step.
//
// On a shared, loaded machine the two windows (a minute apart) can see different loads, so each
// window's figure is its median step (a descheduled step does not drag it), and the process's
// CPU time per step (user + system, the host's own work whatever the load) is printed beside it.

const STEPS = 1500;
const WINDOW = 300;
const ANSWER_MS = 15;

const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-loop-history-'));
const project = join(dir, 'project');
mkdirSync(project);
for (let i = 0; i < STEPS; i++) writeFileSync(join(project, `f${i}.txt`), `line of file ${i}\n`);
const home = join(dir, 'home');
mkdirSync(join(home, 'configs'), { recursive: true });
writeFileSync(
  join(home, 'configs', 'app.json'),
  JSON.stringify({
    permission_mode: 'auto',
    projects: { p: { path: project } },
    // Room for the whole run: compaction (a rebuild by design) is not what this measures.
    model: { provider: 'anthropic', name: 'claude-sonnet-4-5', context_window: 1_000_000 },
    agent: { max_steps: STEPS + 10, edit_tool: 'structured_patch' },
  }),
);

const arrivals: number[] = [];
/** Process CPU time (ms) at each request's arrival. */
const cpuAt: number[] = [];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let lastBody = '';
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/messages') {
      res.writeHead(404).end();
      return;
    }
    const i = arrivals.length;
    arrivals.push(performance.now());
    cpuAt.push(cpuMs());
    if (i === STEPS) lastBody = Buffer.concat(chunks).toString('utf8');
    setTimeout(() => answer(res, i), ANSWER_MS);
  });
});

/** Even steps read file i; odd steps edit the file the step before read. */
function toolArgs(i: number): Record<string, unknown> {
  if (i % 2 === 0) return { path: `f${i}.txt` };
  const f = i - 1;
  return { file_path: `f${f}.txt`, old_string: `line of file ${f}`, new_string: `edited ${f}` };
}

function answer(res: ServerResponse, i: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: Record<string, unknown>) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', {
    message: {
      id: `msg_${i}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 100, output_tokens: 1 },
    },
  });
  const done = i >= STEPS;
  const block = done
    ? { type: 'text', text: '' }
    : {
        type: 'tool_use',
        id: `toolu_${i}`,
        name: i % 2 ? 'file_edit_tool' : 'read_file',
        input: {},
      };
  send('content_block_start', { index: 0, content_block: block });
  send('content_block_delta', {
    index: 0,
    delta: done
      ? { type: 'text_delta', text: 'Read them all.' }
      : { type: 'input_json_delta', partial_json: JSON.stringify(toolArgs(i)) },
  });
  send('content_block_stop', { index: 0 });
  send('message_delta', {
    delta: { stop_reason: done ? 'end_turn' : 'tool_use', stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  send('message_stop', {});
  res.end();
}

await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const env = {
  PATH: process.env.PATH,
  HOME: home,
  MEWBO_HOME: home,
  ANTHROPIC_API_KEY: 'bench-key',
  ANTHROPIC_BASE_URL: url,
};
try {
  const host = await Host.create({ env });
  try {
    const session = await host.sessions.create({ title: 'bench', project: 'p', root: project });
    await host.agent.send(session, 'read every file, one by one', { capabilities: [] });
    await host.agent.idle(session.id);
  } finally {
    await host.dispose();
  }
  if (arrivals.length !== STEPS + 1)
    throw new Error(`expected ${STEPS + 1} model requests, saw ${arrivals.length}`);
  const results = (JSON.parse(lastBody) as { messages: { content: unknown }[] }).messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : []))
    .filter((b) => b.type === 'tool_result');
  if (results.length !== STEPS)
    throw new Error(`the last request carried ${results.length} tool results, not ${STEPS}`);
  const failed = results.filter((b) => b.is_error);
  if (failed.length)
    throw new Error(`${failed.length} tool calls failed, e.g. ${JSON.stringify(failed[0])}`);
  // Step i: from request i reaching the server to request i + 1 reaching it.
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const steps = (at: number[], from: number) =>
    Array.from({ length: WINDOW }, (_, k) => at[from + k + 1]! - at[from + k]!);
  const first = median(steps(arrivals, 0));
  const last = median(steps(arrivals, STEPS - WINDOW));
  const cpuFirst = (cpuAt[WINDOW]! - cpuAt[0]!) / WINDOW;
  const cpuLast = (cpuAt[STEPS]! - cpuAt[STEPS - WINDOW]!) / WINDOW;
  console.log(
    `agent-loop-history: last ${WINDOW} of ${STEPS} steps vs first ${WINDOW}: ${(last / first).toFixed(2)} (goal <= 1.3x)` +
      ` [median step ${first.toFixed(1)} vs ${last.toFixed(1)} ms, the model answering in ${ANSWER_MS} ms;` +
      ` last request ${Math.round(lastBody.length / 1024)} KiB]`,
  );
  report(
    `agent-loop-history CPU per step, last ${WINDOW} of ${STEPS} vs first ${WINDOW}`,
    cpuLast,
    'ms/step',
    cpuFirst,
    'ms/step',
    `first ${WINDOW} steps`,
  );
} finally {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
}
