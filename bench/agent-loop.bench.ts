import {
  closeSync,
  fdatasyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentService } from '../electron/host/agent/agent-service';
import { parseConfig } from '../electron/host/config/load-config';
import type { ModelSettings } from '../electron/host/models/model-settings';
import type { ModelProvider, ModelRequest, ModelTurn } from '../electron/host/models/types';
import { SessionManager } from '../electron/host/sessions/session-manager';
import { builtinTools } from '../electron/host/tools/builtin-tools';
import { readFileTool } from '../electron/host/tools/read-file';
import { ReadState } from '../electron/host/tools/read-state';
import type { AnyTool, ToolContext } from '../electron/host/tools/tool';
import { report, timed } from './report';

// Loop overhead per step with a zero-latency scripted model: every step the model asks for one
// read_file of a different small file, then stops. The same reads called directly, without the
// loop, are the reference: the difference is what binding, the context rebuild from the log, the
// system prompt, the durable events (usage, tool_call, tool_result: fsync'ed) and dispatch cost.

const STEPS = 300;
const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-agent-'));
const project = join(dir, 'project');
mkdirSync(project);
for (let i = 0; i < STEPS; i++) writeFileSync(join(project, `f${i}.txt`), `file ${i}\n`.repeat(20));

class ScriptedModel implements ModelProvider {
  readonly provider = 'anthropic' as const;
  readonly model = 'claude-bench';
  readonly contextWindow = 10_000_000;
  step = 0;
  readonly stepStarts: number[] = [];
  async complete(_req: ModelRequest): Promise<ModelTurn> {
    this.stepStarts.push(performance.now());
    const i = this.step++;
    const usage = { inputTokens: 1, outputTokens: 1 };
    if (i >= STEPS) return { text: 'done', toolCalls: [], stopReason: 'end_turn', usage };
    return {
      text: '',
      toolCalls: [{ id: `c${i}`, name: 'read_file', args: { path: `f${i}.txt` } }],
      stopReason: 'tool_use',
      usage,
    };
  }
}

try {
  const config = parseConfig({ permission_mode: 'auto', agent: { max_steps: STEPS + 10 } });
  const sessions = new SessionManager(join(dir, 'sessions'));
  const model = new ScriptedModel();
  const models = {
    select: async () => ({ ok: true as const, provider: model, reason: 'bench' }),
  } as unknown as ModelSettings;
  const agent = new AgentService({
    sessions,
    config,
    models,
    toolsForRun: () => ({ candidates: async () => builtinTools as AnyTool[] }),
    scratchDir: join(dir, 'scratch'),
    rootLimits: { appHome: join(dir, 'home'), installRoot: null, userHome: join(dir, 'user') },
  });
  const session = await sessions.create({ root: project });
  const logFile = join(dir, 'sessions', session.id, 'events.jsonl');
  const loop = await timed(async () => {
    await agent.send(session, 'read every file', { capabilities: [] });
    await agent.idle(session.id);
  });
  const steps = model.step;
  const perStep = loop.ms / steps;
  const gaps = model.stepStarts.slice(1).map((t, i) => t - model.stepStarts[i]!);
  const early = gaps.slice(0, 50).reduce((a, b) => a + b, 0) / 50;
  const late = gaps.slice(-50).reduce((a, b) => a + b, 0) / 50;
  await agent.dispose();
  await sessions.dispose();

  const ctx: ToolContext = {
    root: project,
    sessionId: 's_bench',
    agentId: 'root',
    signal: new AbortController().signal,
    config,
    services: { readState: new ReadState({ dedup: true }) },
    emit: async () => {},
  };
  const direct = await timed(async () => {
    for (let i = 0; i < STEPS; i++)
      await readFileTool.run(ctx, { path: `f${i}.txt`, offset: 0, limit: 2000 });
  });
  const toolPerCall = direct.ms / STEPS;
  // The durable floor of a step: its turn (usage + tool_call) and its result, each batch fsync'ed,
  // written raw with the same bytes the loop wrote.
  const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
  const fsyncFloor = await timed(() => {
    const fd = openSync(join(dir, 'raw.jsonl'), 'a');
    for (let i = 0; i + 1 < lines.length; i += 3) {
      writeSync(fd, `${lines[i]}\n${lines[i + 1]}\n`);
      fdatasyncSync(fd);
      writeSync(fd, `${lines[i + 2] ?? ''}\n`);
      fdatasyncSync(fd);
    }
    closeSync(fd);
  });
  const floorPerStep = fsyncFloor.ms / Math.floor(lines.length / 3);
  report(
    `agent loop, ${steps} steps of one read_file each`,
    perStep,
    'ms/step',
    toolPerCall,
    'ms/call',
    'the read_file calls alone',
  );
  report(
    'loop overhead per step (loop minus the tool call)',
    perStep - toolPerCall,
    'ms/step',
    toolPerCall,
    'ms/call',
    'the read_file call alone',
  );
  report(
    'loop per step vs its durable floor',
    perStep,
    'ms/step',
    floorPerStep,
    'ms/step',
    'two raw write+fdatasync of the same bytes per step',
  );
  report(
    'step time, last 50 steps vs first 50 (in-process model; see agent-loop-history for the real path)',
    late,
    'ms/step',
    early,
    'ms/step',
    'first 50 steps',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
