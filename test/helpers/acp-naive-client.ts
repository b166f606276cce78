import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { buildScriptedAgent } from './acp-agent-build';

// The control of the ACP attack tests: the scripted agent (test/fixtures/acp-scripted-agent.ts)
// run as a plain child process, unconfined, by a client that serves what it is asked without
// checking anything. What the agent does here shows the attack works when nothing stands in
// its way; the same script hosted by the app shows what the app stops.

export interface NaiveRun {
  /** A folder for the script and its record (beside the project, not in it). */
  dir: string;
  cwd: string;
  turns: unknown[][];
  env?: NodeJS.ProcessEnv;
  /** The client methods served, e.g. fs/write_text_file writing the path it is given. */
  register?(app: ReturnType<typeof acp.client>): void;
  capabilities?: acp.ClientCapabilities;
}

/** Runs one prompt turn of the script; resolves with the record file's path once it ended. */
export async function runUnconfined(run: NaiveRun): Promise<string> {
  const agentJs = await buildScriptedAgent();
  const scriptFile = join(run.dir, 'script.json');
  const record = join(run.dir, 'record.jsonl');
  writeFileSync(scriptFile, JSON.stringify({ record, turns: run.turns }));
  const child = spawn(process.execPath, [agentJs, scriptFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: run.env ?? process.env,
  });
  const naive = acp.client({ name: 'naive' });
  run.register?.(naive);
  try {
    await naive.connectWith(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
      async (ctx) => {
        await ctx.request('initialize', {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: run.capabilities ?? {},
        });
        const { sessionId } = await ctx.request('session/new', { cwd: run.cwd, mcpServers: [] });
        await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      },
    );
  } finally {
    child.kill();
  }
  return record;
}
