import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host } from '../electron/host/host';
import type { SessionEventOf } from '../shared/protocol/events';
import { FakeAnthropic } from '../test/helpers/fake-anthropic';
import { promptBlocks } from '../test/helpers/fake-prompt-cache';

// The share of input tokens billed as cache reads over a scripted 30-step Claude session (29 tool
// turns reading files of a project, then an answer) against the fake Messages server, which
// models the prompt cache as documented (breakpoints, 20-block lookback, 1024-token minimum).
// Goal: >= 80%. The reference is the same run's ceiling: for each request, the tokens it shares
// as a prefix with the request before (all a cache could ever return), over all input tokens.
// It is the same work, the same requests, so value / reference is how much of the possible
// saving the breakpoints capture.

const STEPS = 30;
const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-cache-'));
const project = join(dir, 'project');
mkdirSync(project);
for (let i = 0; i < STEPS; i++)
  writeFileSync(join(project, `f${i}.ts`), `export const v${i} = ${i}; // line\n`.repeat(40));
const home = join(dir, 'home');
mkdirSync(join(home, 'configs'), { recursive: true });
writeFileSync(
  join(home, 'configs', 'app.json'),
  JSON.stringify({ permission_mode: 'auto', projects: { p: { path: project } } }),
);
const fake = await FakeAnthropic.start({ cache: { minTokens: 1024 } });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  MEWBO_HOME: home,
  ANTHROPIC_API_KEY: 'test-key',
  ANTHROPIC_BASE_URL: fake.url,
};
try {
  for (let i = 0; i < STEPS - 1; i++)
    fake.script.push({
      text: i % 5 === 0 ? `Reading file ${i}.` : undefined,
      toolCalls: [{ name: 'read_file', args: { path: `f${i}.ts` } }],
    });
  fake.script.push({ text: 'Read them all.' });
  const host = await Host.create({ env });
  try {
    const session = await host.sessions.create({ title: 'bench', project: 'p', root: project });
    await host.agent.send(session, 'read every file, one by one', { capabilities: [] });
    await host.agent.idle(session.id);
    const usage = session
      .events()
      .filter((e): e is SessionEventOf<'usage'> => e.type === 'usage' && e.agent_id === 'root');
    if (usage.length !== STEPS)
      throw new Error(`expected ${STEPS} model calls, saw ${usage.length}`);
    const input = usage.reduce((n, u) => n + u.input_tokens, 0);
    const read = usage.reduce((n, u) => n + (u.cache_read_tokens ?? 0), 0);
    // The ceiling: the prefix each request shares with the one before it, in the fake's tokens.
    let shared = 0;
    let total = 0;
    let prev: string[] = [];
    for (const r of fake.requests) {
      const blocks = promptBlocks(r.body).map((b) => b.json);
      let k = 0;
      while (k < blocks.length && k < prev.length && blocks[k] === prev[k]) k++;
      const tok = (bs: string[]) => bs.reduce((n, b) => n + Math.ceil(b.length / 4), 0);
      shared += tok(blocks.slice(0, k));
      total += tok(blocks);
      prev = blocks;
    }
    const share = read / input;
    console.log(`anthropic-cache-read-share: ${share.toFixed(2)} (goal >= 0.80)`);
    console.log(
      `anthropic-cache-read-share vs ceiling: ${(share / (shared / total)).toFixed(2)} (ceiling ${(shared / total).toFixed(2)}: the prefix each request repeats)`,
    );
  } finally {
    await host.dispose();
  }
} finally {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
