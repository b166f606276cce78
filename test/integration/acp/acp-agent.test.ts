import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  methods,
  type ClientCapabilities,
  type ClientContext,
  type SessionConfigOption,
} from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AcpAgentProcess, type AcpClientHandlers } from '../../helpers/acp-agent-process';
import { EditorTerminals } from '../../helpers/acp-editor-terminals';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { localName, startChildHttpOrigin } from '../../helpers/net-fixtures';
import { abi, networkGap } from '../../reliability/attacks/attack-world';
import { jsonLines, MEWBO_CLI } from '../../helpers/mewbo-cli';
import { makePng } from '../../helpers/png';
import { tempDir } from '../../helpers/temp';

// `mewbo acp` driven by the ACP SDK's client, as Zed drives it: a real child process, a temp
// $MEWBO_HOME, a project in a temp dir, and a scripted Anthropic server as the model.

type LogEvent = { type: string; [field: string]: unknown };

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;
/** Every `mewbo acp` a test started, killed after it if still running. */
const procs: { kill(): void }[] = [];

beforeEach(async () => {
  home = tempDir('mewbo-acp-home-');
  project = tempDir('mewbo-acp-proj-');
  writeFileSync(join(project.dir, 'a.txt'), 'one\n');
  fake = await FakeAnthropic.start();
});
afterEach(async () => {
  for (const p of procs.splice(0)) p.kill();
  await fake.close();
  home.cleanup();
  project.cleanup();
});

function env(): NodeJS.ProcessEnv {
  return { MEWBO_HOME: home.dir, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
}

async function start(handlers?: AcpClientHandlers, capabilities?: ClientCapabilities) {
  const started = await AcpAgentProcess.start(env(), handlers, capabilities);
  procs.push(started.proc);
  return started;
}

async function newSession(agent: ClientContext): Promise<string> {
  const made = await agent.request(methods.agent.session.new, {
    cwd: project.dir,
    mcpServers: [],
  });
  return made.sessionId;
}

function prompt(agent: ClientContext, sessionId: string, text: string) {
  return agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text }],
  });
}

function sessionLog(sessionId: string): LogEvent[] {
  return jsonLines<LogEvent>(
    readFileSync(join(home.dir, 'sessions', sessionId, 'events.jsonl'), 'utf8'),
  );
}

/** The edit tool the scripted model's backend binds: one SEARCH/REPLACE block. */
function editBlock(file: string, search: string, replace: string) {
  const section = (t: string) => (t ? `${t}\n` : '');
  return {
    name: 'aider_edit_block_tool',
    args: {
      content: `${file}\n\`\`\`\n<<<<<<< SEARCH\n${section(search)}=======\n${section(replace)}>>>>>>> REPLACE\n\`\`\`\n`,
    },
  };
}

const EDIT = editBlock('a.txt', 'one', 'two');

/** A turn of an edit waiting on a permission the editor shows and never answers. */
async function turnWaitingOnPermission() {
  fake.script.push({ toolCalls: [EDIT] });
  let asked!: () => void;
  const wasAsked = new Promise<void>((r) => (asked = r));
  const started = await start({
    permission: () => {
      asked();
      return new Promise(() => {});
    },
  });
  const sessionId = await newSession(started.agent);
  const turn = prompt(started.agent, sessionId, 'change one to two');
  await wasAsked;
  return { ...started, sessionId, turn };
}

/** `mewbo acp` fed raw lines: its answers by id (null for a message it could not read). */
function rawAgent() {
  const child = spawn(process.execPath, [MEWBO_CLI, 'acp'], {
    env: { PATH: process.env.PATH, ...env() },
  });
  const answers: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const l of lines) if (l) answers.push(JSON.parse(l) as Record<string, unknown>);
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    child,
    exited,
    write: (line: string) => child.stdin.write(`${line}\n`),
    request: (id: number, method: string, params: unknown) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`),
    async answer(id: number | null): Promise<Record<string, unknown>> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const hit = answers.find((a) => a.id === id);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no answer to ${id}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

describe('mewbo acp', () => {
  it('initialize offers session loading, images and embedded context; session/new gives the modes and the / commands follow', async () => {
    const raw = rawAgent();
    procs.push({ kill: () => raw.child.kill('SIGKILL') });
    raw.request(1, 'initialize', { protocolVersion: 1 });
    expect((await raw.answer(1)).result).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, embeddedContext: true },
      },
      agentInfo: { name: 'mewbo' },
    });

    const { proc, agent } = await start();
    const made = await agent.request(methods.agent.session.new, {
      cwd: project.dir,
      mcpServers: [],
    });
    expect(made.sessionId).toMatch(/^s_/);
    expect(made.modes).toMatchObject({ currentModeId: 'ask' });
    expect(made.modes!.availableModes.map((m) => m.id)).toEqual([
      'ask',
      'accept-edits',
      'plan',
      'auto',
    ]);
    const commands = await proc.until((u) => u.sessionUpdate === 'available_commands_update');
    expect(commands).toMatchObject({
      availableCommands: expect.arrayContaining([expect.objectContaining({ name: 'compact' })]),
    });
    // The session is the app's: it is on the log the desktop app lists.
    expect(sessionLog(made.sessionId)[0]).toMatchObject({
      type: 'session_created',
      root: project.dir,
    });
  });

  it('a prompt streams its answer, its tool calls, an approval asked in the editor and the edit as an ACP diff', async () => {
    fake.script.push(
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { toolCalls: [EDIT] },
      { text: 'Changed one to two.' },
    );
    const { proc, agent } = await start();
    const sessionId = await newSession(agent);
    const res = await prompt(agent, sessionId, 'change one to two');
    expect(res.stopReason).toBe('end_turn');
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('two\n');

    const calls = proc.of('tool_call');
    expect(calls.map((c) => c.kind)).toEqual(['read', 'edit']);
    expect(calls[0]).toMatchObject({
      title: 'Read a.txt',
      locations: [{ path: join(project.dir, 'a.txt') }],
    });
    // Asked before the edit ran, with the diff to decide on and the app's options.
    expect(proc.permissions).toHaveLength(1);
    const asked = proc.permissions[0]!;
    expect(asked.toolCall.toolCallId).toBe(calls[1]!.toolCallId);
    expect(asked.options.map((o) => o.kind)).toEqual(
      expect.arrayContaining(['allow_once', 'reject_once']),
    );
    expect(asked.toolCall.content?.[0]).toMatchObject({
      type: 'diff',
      path: join(project.dir, 'a.txt'),
    });
    const edited = proc.of('tool_call_update').find((u) => u.toolCallId === calls[1]!.toolCallId)!;
    expect(edited).toMatchObject({
      status: 'completed',
      content: [
        { type: 'diff', path: join(project.dir, 'a.txt'), oldText: 'one\n', newText: 'two\n' },
      ],
    });
    const text = proc
      .of('agent_message_chunk')
      .map((c) => (c.content.type === 'text' ? c.content.text : ''))
      .join('');
    expect(text).toBe('Changed one to two.');
    // The first message named the session, as in the app.
    expect(proc.of('session_info_update')[0]).toMatchObject({
      title: expect.stringContaining('change one to two'),
    });
    // The editor's answer is the user's decision, logged like one made in the app.
    expect(sessionLog(sessionId).find((e) => e.type === 'approval_decision')).toMatchObject({
      decision: 'allow',
      by: 'user',
    });
  });

  it('a rejected permission request leaves the file alone, fails the call and is logged as the user denying it', async () => {
    fake.script.push({ toolCalls: [EDIT] }, { text: 'Understood, not changed.' });
    const { proc, agent } = await start({
      permission: () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } }),
    });
    const sessionId = await newSession(agent);
    expect((await prompt(agent, sessionId, 'change one to two')).stopReason).toBe('end_turn');
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(proc.of('tool_call_update')[0]).toMatchObject({ status: 'failed' });
    expect(sessionLog(sessionId).find((e) => e.type === 'approval_decision')).toMatchObject({
      decision: 'deny',
      by: 'user',
    });
  });

  it('set_mode auto runs a shell command without asking; its output and the todo list arrive as a tool call and a plan', async () => {
    fake.script.push(
      {
        toolCalls: [
          {
            name: 'update_todos',
            args: { todos: [{ label: 'Say hello', status: 'in_progress' }] },
          },
        ],
      },
      { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo hello-from-shell' } }] },
      { text: 'Done.' },
    );
    const { proc, agent } = await start();
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    expect((await prompt(agent, sessionId, 'say hello')).stopReason).toBe('end_turn');
    expect(proc.permissions).toHaveLength(0);
    expect(proc.of('plan')[0]).toMatchObject({
      entries: [{ content: 'Say hello', status: 'in_progress' }],
    });
    const shell = proc.of('tool_call').find((c) => c.kind === 'execute')!;
    expect(shell.title).toBe('Run echo hello-from-shell');
    const out = proc.of('tool_call_update').find((u) => u.toolCallId === shell.toolCallId)!;
    expect(out.status).toBe('completed');
    expect(JSON.stringify(out.content)).toContain('hello-from-shell');
    expect(sessionLog(sessionId).some((e) => e.type === 'mode_change' && e.mode === 'auto')).toBe(
      true,
    );
    await expect(
      agent.request(methods.agent.session.setMode, { sessionId, modeId: 'yolo' }),
    ).rejects.toThrow(/no mode 'yolo'/);
  });

  it('in plan mode the proposed plan is a permission request; approving it switches the mode, sent as current_mode_update', async () => {
    fake.script.push(
      { toolCalls: [{ name: 'exit_plan_mode', args: { plan: '1. change one to two' } }] },
      { text: 'Plan approved; carrying it out later.' },
    );
    const { proc, agent } = await start();
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' });
    expect((await prompt(agent, sessionId, 'plan it')).stopReason).toBe('end_turn');
    expect(proc.permissions[0]).toMatchObject({
      toolCall: { title: 'Approve the plan' },
      options: [{ optionId: 'approve' }, { optionId: 'reject' }],
    });
    expect(proc.of('current_mode_update').at(-1)).toMatchObject({ currentModeId: 'ask' });
    // The editor's config options follow the switch.
    const options = proc.of('config_option_update').at(-1)!.configOptions;
    expect(options.find((o) => o.id === 'mode')).toMatchObject({ currentValue: 'ask' });
  });

  it('session/cancel ends a turn mid-answer with stopReason cancelled, and the log says stopped', async () => {
    fake.script.push({ text: 'Thinking about it', hang: true });
    const { proc, agent } = await start();
    const sessionId = await newSession(agent);
    const turn = prompt(agent, sessionId, 'take your time');
    await proc.until((u) => u.sessionUpdate === 'agent_message_chunk');
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    expect(sessionLog(sessionId).at(-1)).toMatchObject({ type: 'run_state', state: 'stopped' });
  });

  it('a pending permission request is withdrawn by session/cancel: the call is not run and the turn ends cancelled', async () => {
    // An editor that shows the card and waits for the user, who presses Stop instead.
    const { agent, sessionId, turn } = await turnWaitingOnPermission();
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(sessionLog(sessionId).find((e) => e.type === 'approval_decision')).toMatchObject({
      decision: 'deny',
      by: 'policy',
    });
  });

  it('session/load in a new process replays the conversation as updates: the user message, the thinking, the todo list, the tool call, the answer', async () => {
    fake.script.push(
      {
        thinking: 'checking the file first',
        toolCalls: [
          {
            name: 'update_todos',
            args: { todos: [{ label: 'Read a.txt', status: 'in_progress' }] },
          },
        ],
      },
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'It says one.' },
    );
    const first = await start();
    const sessionId = await newSession(first.agent);
    await prompt(first.agent, sessionId, 'what is in a.txt?');
    expect(await first.proc.close()).toBe(0);

    const { proc, agent } = await start();
    const loaded = await agent.request(methods.agent.session.load, {
      sessionId,
      cwd: project.dir,
      mcpServers: [],
    });
    expect(loaded?.modes).toMatchObject({ currentModeId: 'ask' });
    expect(proc.updates.map((u) => u.update.sessionUpdate)).toEqual(
      expect.arrayContaining([
        'user_message_chunk',
        'tool_call',
        'tool_call_update',
        'agent_message_chunk',
      ]),
    );
    expect(proc.of('user_message_chunk')[0]!.content).toEqual({
      type: 'text',
      text: 'what is in a.txt?',
    });
    expect(proc.of('agent_message_chunk').at(-1)!.content).toEqual({
      type: 'text',
      text: 'It says one.',
    });
    expect(proc.of('agent_thought_chunk')[0]!.content).toEqual({
      type: 'text',
      text: 'checking the file first',
    });
    expect(proc.of('plan').at(-1)).toMatchObject({
      entries: [{ content: 'Read a.txt', status: 'in_progress' }],
    });
    // Loaded, it takes prompts again, with the history in the model's context.
    fake.script.push({ text: 'Still one.' });
    await prompt(agent, sessionId, 'and now?');
    expect(fake.requests.at(-1)!.transcript).toContain('what is in a.txt?');
    const elsewhere = tempDir('mewbo-acp-other-');
    try {
      await expect(
        agent.request(methods.agent.session.load, {
          sessionId,
          cwd: elsewhere.dir,
          mcpServers: [],
        }),
      ).rejects.toThrow(/not .*: open it with that cwd/);
    } finally {
      elsewhere.cleanup();
    }
  });

  it("the model's thinking streams as thought chunks, and a stop reason it gave is the turn's: max_tokens", async () => {
    fake.script.push({
      thinking: 'pondering the request',
      text: 'cut off here',
      stopReason: 'max_tokens',
    });
    const { proc, agent } = await start();
    const sessionId = await newSession(agent);
    expect((await prompt(agent, sessionId, 'write a lot')).stopReason).toBe('max_tokens');
    expect(proc.of('agent_thought_chunk')[0]!.content).toEqual({
      type: 'text',
      text: 'pondering the request',
    });
  });

  it("a prompt's embedded resource (an editor's unsaved buffer) and image reach the model", async () => {
    fake.script.push({ text: 'I see it.' });
    const { agent } = await start();
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'look at this' },
        {
          type: 'resource',
          resource: {
            uri: pathToFileURL(join(project.dir, 'a.txt')).href,
            text: 'the unsaved buffer',
            mimeType: 'text/plain',
          },
        },
        { type: 'image', mimeType: 'image/png', data: makePng(2, 2).toString('base64') },
      ],
    });
    expect(fake.requests[0]!.transcript).toContain('the unsaved buffer');
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('"type":"image"');
    const sent = sessionLog(sessionId).find((e) => e.type === 'user_message')!;
    expect(sent.mentions).toEqual([{ path: 'a.txt', text: 'the unsaved buffer' }]);
  });

  it('bad input gets a JSON-RPC error naming what was wrong, and the process goes on answering', async () => {
    const raw = rawAgent();
    procs.push({ kill: () => raw.child.kill('SIGKILL') });
    raw.request(1, 'initialize', { protocolVersion: 1 });
    await raw.answer(1);
    raw.write('{"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {');
    expect(await raw.answer(null)).toMatchObject({ error: { code: -32700 } });
    raw.request(3, 'session/fly', {});
    expect(await raw.answer(3)).toMatchObject({ error: { code: -32601 } });
    raw.request(4, 'session/prompt', {
      sessionId: 's_unknown123',
      prompt: [{ type: 'text', text: 'hi' }],
    });
    expect(await raw.answer(4)).toMatchObject({
      error: { code: -32002, message: expect.stringContaining("no session 's_unknown123'") },
    });
    raw.request(5, 'session/new', { cwd: 'relative/dir', mcpServers: [] });
    expect(await raw.answer(5)).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('absolute') },
    });
    raw.request(6, 'session/new', { cwd: home.dir, mcpServers: [] });
    expect(await raw.answer(6)).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("app's own folder") },
    });
    raw.request(7, 'session/prompt', { sessionId: 42 });
    expect(await raw.answer(7)).toMatchObject({ error: { code: -32602 } });
    raw.request(8, 'session/new', { cwd: project.dir, mcpServers: [] });
    const made = (await raw.answer(8)).result as { sessionId: string };
    raw.request(9, 'session/prompt', {
      sessionId: made.sessionId,
      prompt: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
    });
    expect(await raw.answer(9)).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('audio content is not supported') },
    });
    // Refused before anything was logged.
    expect(sessionLog(made.sessionId).map((e) => e.type)).toEqual(['session_created']);
    raw.child.stdin.end();
    expect(await raw.exited).toBe(0);
  });

  it('an editor that vanishes mid-turn stops the run: the process exits 0 and the log ends stopped, nothing left open', async () => {
    fake.script.push({ text: 'Working on it', hang: true });
    const { proc, agent } = await start();
    const sessionId = await newSession(agent);
    void prompt(agent, sessionId, 'take your time').catch(() => {});
    await proc.until((u) => u.sessionUpdate === 'agent_message_chunk');
    expect(await proc.close()).toBe(0);
    const log = sessionLog(sessionId);
    expect(log.at(-1)).toMatchObject({ type: 'run_state', state: 'stopped' });
    expect(log.find((e) => e.type === 'assistant_message')).toMatchObject({ stopped: true });
  });

  it("with the editor's fs, read_file reads its unsaved buffer, and a path outside the root is refused before the editor is asked", async () => {
    writeFileSync(join(project.dir, '..', `${basename(project.dir)}-outside.txt`), 'secret\n');
    const script = () =>
      fake.script.push(
        { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
        {
          toolCalls: [
            { name: 'read_file', args: { path: `../${basename(project.dir)}-outside.txt` } },
          ],
        },
        { text: 'Read.' },
      );
    // Control: an editor that offers no fs, so the file is read as saved on disk.
    script();
    const plain = await start();
    await prompt(plain.agent, await newSession(plain.agent), 'read a.txt');
    expect(fake.requests[1]!.transcript).toContain('one');

    const asked: string[] = [];
    script();
    const { agent } = await start(
      {
        register: (app) =>
          app.onRequest(methods.client.fs.readTextFile, ({ params }) => {
            asked.push(params.path);
            return { content: 'unsaved two\n' };
          }),
      },
      { fs: { readTextFile: true } },
    );
    await prompt(agent, await newSession(agent), 'read a.txt');
    expect(fake.requests[4]!.transcript).toContain('unsaved two');
    expect(fake.requests[4]!.transcript).not.toMatch(/\tone/);
    expect(fake.requests[5]!.transcript).toMatch(/outside the (project )?root|path_validation/i);
    expect(fake.requests[5]!.transcript).not.toContain('secret');
    expect(asked).toEqual([join(project.dir, 'a.txt')]);
  });
});

/** An editor holding unsaved buffers: serves fs/* from them, records every call, saves nothing. */
function bufferingEditor(buffers: Record<string, string>, refuse: (path: string) => boolean) {
  const calls: { method: string; path: string; content?: string }[] = [];
  const handlers: AcpClientHandlers = {
    register: (app) =>
      app
        .onRequest(methods.client.fs.readTextFile, ({ params }) => {
          calls.push({ method: 'read', path: params.path });
          return { content: buffers[params.path] ?? readFileSync(params.path, 'utf8') };
        })
        .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
          calls.push({ method: 'write', path: params.path, content: params.content });
          if (refuse(params.path)) throw new Error('the buffer is read-only');
          buffers[params.path] = params.content;
          return {};
        }),
  };
  return { calls, buffers, handlers };
}

describe("mewbo acp through the editor's fs/write_text_file", () => {
  it('an edit applies to the unsaved buffer and is written through the editor after the checkpoint; outside the root nothing is asked; a refused write changes nothing', async () => {
    writeFileSync(join(project.dir, 'b.txt'), 'bee\n');
    const a = join(project.dir, 'a.txt');
    const b = join(project.dir, 'b.txt');
    const outside = `../${basename(project.dir)}-outside.txt`;
    fake.script.push(
      {
        toolCalls: [EDIT],
      },
      {
        toolCalls: [
          { name: 'file_edit_tool', args: { file_path: outside, old_string: '', new_string: 'x' } },
        ],
      },
      {
        toolCalls: [editBlock('b.txt', 'bee', 'wasp')],
      },
      { text: 'Edited.' },
    );
    const editor = bufferingEditor({ [a]: 'one\nunsaved\n' }, (path) => path === b);
    const { agent } = await start(editor.handlers, {
      fs: { readTextFile: true, writeTextFile: true },
    });
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    await prompt(agent, sessionId, 'edit');

    // The edit saw the unsaved line and went to the editor; the disk is the editor's to save.
    expect(editor.buffers[a]).toBe('two\nunsaved\n');
    expect(readFileSync(a, 'utf8')).toBe('one\n');
    const log = sessionLog(sessionId);
    const results = log.filter((e) => e.type === 'tool_result');
    expect(results[0]).toMatchObject({ payload: { kind: 'diff' } });
    expect(JSON.stringify(results[0])).toContain('+two');
    const checkpoint = log.findIndex((e) => e.type === 'checkpoint' && e.phase === 'before');
    expect(checkpoint).toBeGreaterThan(-1);
    expect(checkpoint).toBeLessThan(log.indexOf(results[0]!));
    // Outside the root: refused by the app, the editor never asked.
    expect(results[1]).toMatchObject({ payload: { kind: 'error' } });
    expect(editor.calls.some((c) => c.path.includes('outside'))).toBe(false);
    // The editor refused b.txt's write: the call fails with its reason, nothing changed anywhere.
    expect(results[2]).toMatchObject({
      payload: { kind: 'error', code: 'editor_write_failed' },
    });
    expect(JSON.stringify(results[2])).toContain('the buffer is read-only');
    expect(readFileSync(b, 'utf8')).toBe('bee\n');
    expect(editor.calls.filter((c) => c.method === 'write').map((c) => c.path)).toEqual([a, b]);
  });

  it("without fs/write_text_file offered, the edit is the app's own atomic write on disk", async () => {
    fake.script.push({ toolCalls: [EDIT] }, { text: 'Edited.' });
    const editor = bufferingEditor({}, () => false);
    const { agent } = await start(editor.handlers, { fs: { readTextFile: true } });
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    await prompt(agent, sessionId, 'edit');
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect(editor.calls.filter((c) => c.method === 'write')).toEqual([]);
  });
});

describe("mewbo acp through the editor's terminal/*", () => {
  let terminals: EditorTerminals | undefined;
  afterEach(() => terminals?.dispose());

  it("a command runs in the editor's terminal as the app's confined launch: the card draws it, output and exit status come back, and the editor's secrets and the app's folder stay out of reach", async () => {
    writeFileSync(join(home.dir, 'probe.txt'), 'app-folder-secret\n');
    const command = `echo out-$((6*7)); echo "key=[$EDITOR_SECRET]"; cat ${join(home.dir, 'probe.txt')}; exit 3`;
    const editorEnv = { ...process.env, EDITOR_SECRET: 'sk-editor-1234' };
    // Control: the same command started bare, as a naive agent would ask the editor to, reads both.
    const bare = spawnSync('/bin/bash', ['-c', command], { env: editorEnv, encoding: 'utf8' });
    expect(bare.stdout).toContain('key=[sk-editor-1234]');
    expect(bare.stdout).toContain('app-folder-secret');

    fake.script.push(
      { toolCalls: [{ name: 'aider_shell_tool', args: { command } }] },
      { text: 'Ran it.' },
    );
    terminals = new EditorTerminals(editorEnv);
    const { proc, agent } = await start(terminals.handlers, { terminal: true });
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    await prompt(agent, sessionId, 'run it');

    // The editor was given the launcher around the command, not the command.
    expect(terminals.created).toHaveLength(1);
    const made = terminals.created[0]!;
    const argv = [made.command, ...made.args];
    expect(argv.some((a) => a.endsWith('mewbo-landlock'))).toBe(true);
    expect(argv).toContain('--rules-fd');
    expect(argv.at(-1)).toContain(command);
    expect(made.cwd).toBe(project.dir);
    // Its card drew the terminal while it ran, and keeps it.
    const call = proc.of('tool_call').find((c) => c.kind === 'execute')!;
    const drawn = proc
      .of('tool_call_update')
      .filter((u) => u.toolCallId === call.toolCallId)
      .map((u) => u.content);
    expect(drawn[0]).toEqual([{ type: 'terminal', terminalId: made.terminalId }]);
    expect(drawn.at(-1)).toEqual([{ type: 'terminal', terminalId: made.terminalId }]);
    const result = sessionLog(sessionId).find((e) => e.type === 'tool_result')!;
    expect(result.payload).toMatchObject({
      kind: 'shell',
      exit_code: 3,
      terminal_id: made.terminalId,
      stdout: expect.stringContaining('out-42'),
    });
    const stdout = (result.payload as { stdout: string }).stdout;
    expect(stdout).toContain('key=[]');
    expect(stdout).not.toContain('app-folder-secret');
    expect(terminals.released).toEqual([made.terminalId]);
    // The rules file the launch read is gone.
    expect(readdirSync(join(home.dir, 'state', 'launch-rules'))).toEqual([]);
  });

  it("a background shell runs in the editor's terminal: shell_session_tool reads it there incrementally, refuses input, and kill ends the terminal; a tty shell stays the app's own", async () => {
    const command = 'echo started; sleep 1; echo ready-now; exec sleep 60';
    const session = (args: Record<string, unknown>) => ({
      toolCalls: [{ name: 'shell_session_tool', args }],
    });
    fake.script.push(
      { toolCalls: [{ name: 'aider_shell_tool', args: { command, run_in_background: true } }] },
      session({ operation: 'read', shell_id: 'shell_1', wait_ms: 30_000, filter: 'ready' }),
      session({ operation: 'write', shell_id: 'shell_1', input: 'hello' }),
      session({ operation: 'list' }),
      session({ operation: 'kill', shell_id: 'shell_1' }),
      {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: { command: 'cat', run_in_background: true, tty: true },
          },
        ],
      },
      session({ operation: 'write', shell_id: 'shell_2', input: 'ping-app' }),
      session({ operation: 'kill', shell_id: 'shell_2' }),
      { text: 'Done.' },
    );
    terminals = new EditorTerminals(process.env);
    const { proc, agent } = await start(terminals.handlers, { terminal: true });
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    expect((await prompt(agent, sessionId, 'start it')).stopReason).toBe('end_turn');

    // The editor was given the confined launch of the command, in the project.
    expect(terminals.created).toHaveLength(1);
    const made = terminals.created[0]!;
    expect([made.command, ...made.args].some((a) => a.endsWith('mewbo-landlock'))).toBe(true);
    expect(made.args.at(-1)).toContain(command);
    expect(made.cwd).toBe(project.dir);
    const results = sessionLog(sessionId)
      .filter((e) => e.type === 'tool_result')
      .map((e) => e.payload as Record<string, unknown>);
    expect(results[0]).toMatchObject({
      kind: 'shell',
      shell_id: 'shell_1',
      status: 'running',
      terminal_id: made.terminalId,
    });
    // The start's card draws the editor's terminal.
    const startCall = proc.of('tool_call').find((c) => c.kind === 'execute')!;
    expect(
      proc
        .of('tool_call_update')
        .filter((u) => u.toolCallId === startCall.toolCallId)
        .map((u) => u.content),
    ).toContainEqual([{ type: 'terminal', terminalId: made.terminalId }]);
    // Read through terminal/output: the filtered wait returned the line it waited for, and the
    // cursor counts everything the command printed, as for the app's own shells.
    expect(results[1]).toMatchObject({
      kind: 'shell_session',
      operation: 'read',
      status: 'running',
      output: 'ready-now\n',
      cursor: 'started\nready-now\n'.length,
    });
    expect(results[2]).toMatchObject({ kind: 'error', code: 'not_writable' });
    expect(String(results[2]!.message)).toContain('tty: true');
    expect(results[3]).toMatchObject({ shells: [{ shell_id: 'shell_1', status: 'running' }] });
    expect(results[4]).toMatchObject({ operation: 'kill', status: 'killed', output: '' });
    expect(terminals.killed).toEqual([made.terminalId]);
    // A tty shell, to be driven, runs in the app's own PTY: the editor got no second terminal.
    expect(results[5]).toMatchObject({ shell_id: 'shell_2', status: 'running' });
    expect(results[5]).not.toHaveProperty('terminal_id');
    expect(results[6]).toMatchObject({
      operation: 'write',
      output: expect.stringContaining('ping-app'),
    });
    await vi.waitFor(() => expect(terminals!.released).toEqual([made.terminalId]), {
      timeout: 15_000,
    });
  });

  it("an editor that goes away while a background shell runs in its terminal: the process exits 0 and the shell's processes are gone", async () => {
    fake.script.push(
      {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: { command: 'exec sleep 120', run_in_background: true },
          },
        ],
      },
      { text: 'Started.' },
    );
    terminals = new EditorTerminals(process.env);
    const { proc, agent } = await start(terminals.handlers, { terminal: true });
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    await prompt(agent, sessionId, 'start it');
    const id = terminals.created[0]!.terminalId;
    // The editor's terminal process outlives nothing of the app: once the agent is gone, so is it.
    expect(await proc.close()).toBe(0);
    await terminals.exited(id);
  });

  it("an editor that answers terminal/kill but leaves the command running: shell_session_tool kill still ends it, swept by the shell's token", async () => {
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(
      join(home.dir, 'configs', 'app.json'),
      JSON.stringify({ shells: { kill_grace_ms: 100 } }),
    );
    fake.script.push(
      {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: { command: 'exec sleep 120', run_in_background: true },
          },
        ],
      },
      {
        toolCalls: [
          { name: 'shell_session_tool', args: { operation: 'kill', shell_id: 'shell_1' } },
        ],
      },
      { text: 'Stopped.' },
    );
    terminals = new EditorTerminals(process.env, { ignoreKill: true });
    const { agent } = await start(terminals.handlers, { terminal: true });
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    await prompt(agent, sessionId, 'start it, then stop it');
    const id = terminals.created[0]!.terminalId;
    // Asked to kill it (at SIGTERM, then again at SIGKILL after the grace period).
    expect(terminals.killed).toContain(id);
    const killed = sessionLog(sessionId).filter((e) => e.type === 'tool_result')[1]!;
    expect(killed.payload).toMatchObject({ operation: 'kill', status: 'killed' });
    // The editor never ended it: the app's sweep of the shell's token did.
    expect(await terminals.exited(id)).toMatchObject({ signal: 'SIGKILL' });
  });

  it("session/cancel while a command runs in the editor's terminal ends the turn cancelled and kills the terminal", async () => {
    fake.script.push({ toolCalls: [{ name: 'aider_shell_tool', args: { command: 'sleep 60' } }] });
    terminals = new EditorTerminals(process.env);
    const { proc, agent } = await start(terminals.handlers, { terminal: true });
    const sessionId = await newSession(agent);
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
    const turn = prompt(agent, sessionId, 'wait');
    // The terminal drawn on the card: the command is running (a loaded machine may take a while).
    await proc.until((u) => u.sessionUpdate === 'tool_call_update' && !!u.content?.length, 60_000);
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    const id = terminals.created[0]!.terminalId;
    await terminals.exited(id);
    expect(terminals.killed).toEqual([id]);
  });
});

const local = await localName();

describe.runIf(abi >= 4 && networkGap === null && local !== null)(
  'mewbo acp: network approvals',
  () => {
    let origin: Awaited<ReturnType<typeof startChildHttpOrigin>> | undefined;
    afterEach(() => origin?.close());

    it("a shell's first connection to a new name is asked in the editor on a fetch card of its own; allowed once, the connection goes through", async () => {
      origin = await startChildHttpOrigin(local!.address);
      mkdirSync(join(home.dir, 'configs'), { recursive: true });
      writeFileSync(
        join(home.dir, 'configs', 'app.json'),
        JSON.stringify({ sandbox: { network: { local_ports: [origin.port] } } }),
      );
      const url = `http://${local!.name}:${origin.port}/first`;
      fake.script.push(
        { toolCalls: [{ name: 'aider_shell_tool', args: { command: `curl -sS ${url}` } }] },
        { text: 'Fetched.' },
      );
      const { proc, agent } = await start();
      const sessionId = await newSession(agent);
      await prompt(agent, sessionId, 'fetch it');

      // Two asks: the command, then its connection, each on a card the editor was sent first.
      expect(proc.permissions.map((p) => p.toolCall.title)).toEqual([
        expect.stringContaining('curl'),
        `connect to ${local!.name}:${origin.port}`,
      ]);
      const net = proc.permissions[1]!;
      expect(net.options.map((o) => o.name)).toContain(`Always allow Network(${local!.name})`);
      const kinds = proc.updates.map((u) => u.update);
      const card = kinds.findIndex(
        (u) => u.sessionUpdate === 'tool_call' && u.toolCallId === net.toolCall.toolCallId,
      );
      expect(kinds[card]).toMatchObject({ kind: 'fetch', status: 'pending' });
      expect(
        kinds.find(
          (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === net.toolCall.toolCallId,
        ),
      ).toMatchObject({ status: 'completed' });
      expect(origin.seen).toEqual(['/first']);
      const result = sessionLog(sessionId).find((e) => e.type === 'tool_result')!;
      expect(JSON.stringify(result.payload)).toContain('origin saw GET /first');
    });
  },
);

/** The values a select config option offers. */
function optionValues(option: SessionConfigOption | undefined): string[] {
  if (option?.type !== 'select') return [];
  return option.options.flatMap((o) => ('value' in o ? [o.value] : []));
}

describe('mewbo acp: authentication, session/list and config options', () => {
  it('initialize names the ways a model is set up; with none, session/new and authenticate answer auth_required saying how, and no session is made; with a key, authenticate succeeds', async () => {
    const bare = await AcpAgentProcess.start({
      MEWBO_HOME: home.dir,
      ANTHROPIC_BASE_URL: fake.url,
    });
    procs.push(bare.proc);
    expect(bare.proc.initialized.authMethods!.map((m) => m.id)).toEqual([
      'mewbo-settings',
      'env-api-key',
    ]);
    await expect(
      bare.agent.request(methods.agent.session.new, { cwd: project.dir, mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^Authentication required: .*ANTHROPIC_API_KEY/),
    });
    await expect(
      bare.agent.request(methods.agent.authenticate, { methodId: 'env-api-key' }),
    ).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
    await expect(
      bare.agent.request(methods.agent.authenticate, { methodId: 'oauth' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("no auth method 'oauth'"),
    });
    expect(
      existsSync(join(home.dir, 'sessions')) ? readdirSync(join(home.dir, 'sessions')) : [],
    ).toEqual([]);

    const { agent } = await start();
    expect(await agent.request(methods.agent.authenticate, { methodId: 'mewbo-settings' })).toEqual(
      {},
    );
  });

  it('a turn the provider fails answers -32603 with its reason; one with no model set up any more answers auth_required', async () => {
    fake.script.push({ error: { status: 400, message: 'the provider refused this request' } });
    const { agent } = await start();
    const sessionId = await newSession(agent);
    await expect(prompt(agent, sessionId, 'hello')).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('the provider refused this request'),
    });
    // configs/app.json now names a provider without a key: the next turn has no model.
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(
      join(home.dir, 'configs', 'app.json'),
      JSON.stringify({ model: { provider: 'openai' } }),
    );
    await vi.waitFor(
      () =>
        expect(prompt(agent, sessionId, 'again')).rejects.toMatchObject({
          code: -32000,
          message: expect.stringContaining('OPENAI_API_KEY'),
        }),
      { timeout: 15_000 },
    );
  });

  it("session/list gives the app's sessions of a cwd with their titles and last activity, all of them without a cwd; a bad cursor is refused", async () => {
    fake.script.push({ text: 'Hi.' });
    const { proc, agent } = await start();
    expect(proc.initialized.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    const first = await newSession(agent);
    await prompt(agent, first, 'name this session');
    const second = await newSession(agent);
    const other = tempDir('mewbo-acp-other-');
    try {
      const elsewhere = (
        await agent.request(methods.agent.session.new, { cwd: other.dir, mcpServers: [] })
      ).sessionId;
      const listed = await agent.request(methods.agent.session.list, { cwd: project.dir });
      expect(listed.sessions.map((s) => s.sessionId).sort()).toEqual([first, second].sort());
      expect(listed.sessions.find((s) => s.sessionId === first)).toMatchObject({
        cwd: project.dir,
        title: expect.stringContaining('name this session'),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(listed.nextCursor).toBeUndefined();
      const all = await agent.request(methods.agent.session.list, {});
      expect(all.sessions.map((s) => s.sessionId)).toEqual(
        expect.arrayContaining([first, second, elsewhere]),
      );
      await expect(
        agent.request(methods.agent.session.list, { cursor: 'page-2' }),
      ).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("cursor 'page-2'"),
      });
    } finally {
      other.cleanup();
    }
  });

  it('session/new gives the mode and the model as config options; set_config_option switches the model the next prompt uses and the mode, refuses what is not offered, and session/load gives them back', async () => {
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(
      join(home.dir, 'configs', 'app.json'),
      JSON.stringify({
        model: { name: 'claude-default-test' },
        providers: { anthropic: { model: 'claude-other' } },
      }),
    );
    const { proc, agent } = await start();
    const made = await agent.request(methods.agent.session.new, {
      cwd: project.dir,
      mcpServers: [],
    });
    const sessionId = made.sessionId;
    const option = (options: SessionConfigOption[] | null | undefined, id: string) =>
      options?.find((o) => o.id === id);
    const setOption = (configId: string, value: string) =>
      agent.request(methods.agent.session.setConfigOption, { sessionId, configId, value });
    expect(option(made.configOptions, 'mode')).toMatchObject({
      category: 'mode',
      currentValue: 'ask',
    });
    expect(optionValues(option(made.configOptions, 'mode'))).toEqual([
      'ask',
      'accept-edits',
      'plan',
      'auto',
    ]);
    const model = option(made.configOptions, 'model');
    expect(model).toMatchObject({ category: 'model', currentValue: 'default' });
    expect(optionValues(model)).toEqual([
      'default',
      'anthropic:claude-default-test',
      'anthropic:claude-other',
    ]);

    fake.script.push({ text: 'On the default.' }, { text: 'On the other.' });
    await prompt(agent, sessionId, 'which model?');
    expect(fake.requests.at(-1)!.body.model).toBe('claude-default-test');
    const set = await setOption('model', 'anthropic:claude-other');
    expect(option(set.configOptions, 'model')).toMatchObject({
      currentValue: 'anthropic:claude-other',
    });
    await prompt(agent, sessionId, 'and now?');
    expect(fake.requests.at(-1)!.body.model).toBe('claude-other');

    const planned = await setOption('mode', 'plan');
    expect(option(planned.configOptions, 'mode')).toMatchObject({ currentValue: 'plan' });
    expect(sessionLog(sessionId).some((e) => e.type === 'mode_change' && e.mode === 'plan')).toBe(
      true,
    );
    await expect(setOption('model', 'gpt-9')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("'gpt-9' is not a value of model"),
    });
    await expect(setOption('temperature', 'hot')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("no config option 'temperature'"),
    });

    expect(await proc.close()).toBe(0);
    const again = await start();
    const loaded = await again.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: project.dir,
      mcpServers: [],
    });
    expect(option(loaded.configOptions, 'model')).toMatchObject({
      currentValue: 'anthropic:claude-other',
    });
    expect(option(loaded.configOptions, 'mode')).toMatchObject({ currentValue: 'plan' });
  });
});

describe('mewbo acp: an editor behaving badly', () => {
  it('a flood of prompts while the editor sits on a permission it never answers: each is refused naming why, the process keeps answering, and cancel ends the turn', async () => {
    const { agent, sessionId, turn } = await turnWaitingOnPermission();
    const flood = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => prompt(agent, sessionId, `again ${i}`)),
    );
    expect(flood.filter((r) => r.status === 'fulfilled')).toEqual([]);
    for (const r of flood)
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: -32600,
        message: expect.stringContaining('a prompt is already running in this session'),
      });
    // Still answering other requests while the permission hangs.
    expect(await newSession(agent)).toMatch(/^s_/);
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    expect(readFileSync(join(project.dir, 'a.txt'), 'utf8')).toBe('one\n');
    // None of the flood reached the log.
    expect(sessionLog(sessionId).filter((e) => e.type === 'user_message')).toHaveLength(1);
  });
});
