import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ofType } from '../agent/harness';
import { AcpWorld } from './acp-harness';

// Issue 30 parts 1-3: a session bound to an external ACP agent (the scripted agent written with
// the SDK) runs its turns through the app as the ACP client, through the protocol a window uses.

let w: AcpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const chunk = (kind: string, text: string) => ({
  update: { sessionUpdate: kind, content: { type: 'text', text } },
});

describe('an external ACP agent in a session', () => {
  it('draws every session/update kind as the session’s own events', async () => {
    w = await AcpWorld.start(
      {
        modes: {
          currentModeId: 'default',
          availableModes: [
            { id: 'default', name: 'Default' },
            { id: 'acceptEdits', name: 'Accept edits' },
          ],
        },
        turns: [
          [
            chunk('user_message_chunk', 'as recorded by the agent'),
            chunk('agent_thought_chunk', 'Let me think.'),
            chunk('agent_message_chunk', 'Hello '),
            chunk('agent_message_chunk', 'world'),
            {
              update: {
                sessionUpdate: 'plan',
                entries: [{ content: 'Edit a.txt', priority: 'high', status: 'in_progress' }],
              },
            },
            {
              update: {
                sessionUpdate: 'available_commands_update',
                availableCommands: [{ name: 'review', description: 'Review the diff' }],
              },
            },
            { update: { sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' } },
            {
              update: {
                sessionUpdate: 'tool_call',
                toolCallId: 'edit-1',
                title: 'Edit a.txt',
                kind: 'edit',
                status: 'pending',
                rawInput: { path: 'a.txt' },
              },
            },
            {
              update: {
                sessionUpdate: 'tool_call_update',
                toolCallId: 'edit-1',
                status: 'in_progress',
              },
            },
            {
              update: {
                sessionUpdate: 'tool_call_update',
                toolCallId: 'edit-1',
                status: 'completed',
                content: [{ type: 'diff', path: 'ROOT/a.txt', oldText: 'one\n', newText: 'two\n' }],
              },
            },
            {
              update: {
                sessionUpdate: 'tool_call',
                toolCallId: 'read-1',
                title: 'Read b.txt',
                kind: 'read',
                status: 'failed',
                content: [{ type: 'content', content: { type: 'text', text: 'no such file' } }],
              },
            },
            { terminal: { command: 'echo', args: ['from the console'], toolCallId: 'run-1' } },
            chunk('agent_message_chunk', 'Done.'),
          ],
        ],
      },
      // The agent's own mode change makes it accept-edits: the user's rule lets the terminal run
      // without a card (client-calls-judged.test.ts covers the cards).
      { files: { 'a.txt': 'one\n' }, config: { permissions: { allow: ['Bash(echo:*)'] } } },
    );
    const id = await w.session();
    const events = await w.turn(id, 'go');
    const messages = ofType(events, 'assistant_message');
    expect(messages.map((m) => m.text)).toEqual(['Hello world', 'Done.']);
    expect(messages[0]!.thinking).toBe('Let me think.');
    expect(
      ofType(events, 'notice').some((n) => n.message.includes('as recorded by the agent')),
    ).toBe(true);
    expect(ofType(events, 'todos')[0]!.items).toEqual([
      { label: 'Edit a.txt', status: 'in_progress' },
    ]);
    expect(ofType(events, 'agent_commands')[0]!.commands).toEqual([
      { name: 'review', description: 'Review the diff' },
    ]);
    expect(ofType(events, 'mode_change').at(-1)!.mode).toBe('accept-edits');
    const calls = ofType(events, 'tool_call');
    expect(calls.map((c) => [c.call_id, c.name])).toEqual([
      ['edit-1', 'acp_edit'],
      ['read-1', 'acp_read'],
      ['run-1', 'acp_execute'],
    ]);
    const results = Object.fromEntries(
      ofType(events, 'tool_result').map((r) => [r.call_id, r.payload]),
    );
    expect(results['edit-1']).toMatchObject({ kind: 'diff', additions: 1, deletions: 1 });
    expect(results['edit-1']!.text).toContain('-one');
    expect(results['read-1']).toMatchObject({ kind: 'error', message: 'no such file' });
    expect(results['run-1']).toMatchObject({
      kind: 'shell',
      stdout: 'from the console\n',
      exit_code: 0,
    });
    // The console it ran in is one of the session's shells (the dock shows it).
    const shell = ofType(events, 'shell_started')[0]!;
    expect(results['run-1']!.shell_id).toBe(shell.shell_id);
    expect(ofType(events, 'shell_exited')[0]!.exit_code).toBe(0);
    expect(ofType(events, 'run_state').at(-1)).toMatchObject({ state: 'idle', reason: 'finished' });
    // The app is the client: it offered the fs and terminal methods it serves, and the project root.
    const rec = w.record();
    expect(rec.find((r) => r.method === 'initialize')!.params).toMatchObject({
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    });
    expect(rec.find((r) => r.method === 'session/new')!.params).toMatchObject({
      cwd: w.h.project,
      mcpServers: [],
    });
    expect(rec.find((r) => r.method === 'session/prompt')!.params!.prompt).toEqual([
      { type: 'text', text: 'go' },
    ]);
  });

  it('sends the user’s MCP servers in session/new as ACP’s McpServer shape: stdio always, http only to an agent declaring it', async () => {
    const mcpServers = {
      tools: { command: 'mcp-tools', args: ['--stdio'], env: { TOOLS_TOKEN: 't1' } },
      remote: {
        type: 'streamable-http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: 'Bearer t2' },
      },
      off: { command: 'mcp-off', disabled: true },
      signin: { type: 'http', url: 'http://127.0.0.1:9/oauth-mcp', oauth: {} },
    };
    const stdio = {
      name: 'tools',
      command: 'mcp-tools',
      args: ['--stdio'],
      env: [{ name: 'TOOLS_TOKEN', value: 't1' }],
    };
    const http = {
      type: 'http',
      name: 'remote',
      url: 'http://127.0.0.1:9/mcp',
      headers: [{ name: 'Authorization', value: 'Bearer t2' }],
    };
    for (const [mcpHttp, expected] of [
      [true, [stdio, http]],
      [false, [stdio]],
    ] as const) {
      w = await AcpWorld.start(
        { mcpHttp, turns: [[chunk('agent_message_chunk', 'ok')]] },
        { config: { mcpServers } },
      );
      await w.turn(await w.session(), 'go');
      expect(w.record().find((r) => r.method === 'session/new')!.params!.mcpServers).toEqual(
        expected,
      );
      await w.close();
      w = undefined;
    }
  });

  it('serves fs/read_text_file, fs/write_text_file and terminal/kill through the app’s own tools', async () => {
    w = await AcpWorld.start(
      {
        turns: [
          [
            { read: { path: 'ROOT/notes.txt', line: 2, limit: 1 } },
            { write: { path: 'ROOT/out/new.txt', content: 'written by the agent\n' } },
            { killTerminal: { command: 'sleep', args: ['30'] } },
          ],
        ],
      },
      { files: { 'notes.txt': 'first\nsecond\nthird\n' }, config: { permission_mode: 'auto' } },
    );
    const id = await w.session();
    const events = await w.turn(id, 'go');
    const steps = w.record().filter((r) => r.step);
    expect(steps[0]).toEqual({ step: 'read', result: { content: 'second' } });
    expect(steps[1]).toEqual({ step: 'write', result: {} });
    expect(readFileSync(join(w.h.project, 'out', 'new.txt'), 'utf8')).toBe(
      'written by the agent\n',
    );
    expect(steps[2]!.result).toMatchObject({ signal: 'SIGTERM' });
    // The write came after the turn's checkpoint, and the turn's end took another: it can be rewound.
    const before = ofType(events, 'checkpoint')[0]!;
    expect(before.phase).toBe('before');
    expect(before.seq).toBeLessThan(
      events.find((e) => e.type === 'tool_result' || e.type === 'shell_started')!.seq,
    );
    await w.h.waitFor(
      id,
      (es) => es.some((e) => e.type === 'checkpoint' && e.phase === 'after'),
      'the checkpoint after the turn',
    );
  });

  it('shows session/request_permission as an approval card with the agent’s options, and answers with the one picked', async () => {
    w = await AcpWorld.start({
      turns: [
        [
          {
            permission: {
              toolCall: {
                toolCallId: 'bash-1',
                title: 'Run make',
                kind: 'execute',
                rawInput: { command: 'make' },
              },
              options: [
                { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                { optionId: 'always', name: 'Always allow make', kind: 'allow_always' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          },
        ],
      ],
    });
    const id = await w.session();
    await w.h.invoke('sessions.send', { id, text: 'build it', capabilities: ['approvals'] });
    const waiting = await w.h.waitFor(
      id,
      (es) => es.some((e) => e.type === 'approval_request'),
      'the approval',
    );
    const request = ofType(waiting, 'approval_request')[0]!;
    expect(request).toMatchObject({ call_id: 'bash-1', tool: 'Run make' });
    expect(request.detail).toContain('"command": "make"');
    expect(request.options!.map((o) => o.id)).toEqual(['yes', 'always', 'no']);
    // The card stands on the agent's own tool card.
    expect(ofType(waiting, 'tool_call').map((c) => c.call_id)).toEqual(['bash-1']);
    expect(
      (
        await w.h.invokeError('agent.decideApproval', {
          id,
          approval_id: request.approval_id,
          decision: 'allow',
          option: 'no',
        })
      ).message,
    ).toMatch(/does not allow/);
    await w.h.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'allow',
      option: 'always',
    });
    const events = await w.settled(id);
    expect(ofType(events, 'approval_decision')[0]).toMatchObject({
      decision: 'allow',
      by: 'user',
      option: 'always',
    });
    expect(w.record().find((r) => r.step === 'permission')!.result).toEqual({
      outcome: { outcome: 'selected', optionId: 'always' },
    });
  });

  it('sends the mode select as session/set_mode, in the agent’s own mode ids', async () => {
    w = await AcpWorld.start({
      modes: {
        currentModeId: 'default',
        availableModes: [
          { id: 'default', name: 'Default' },
          { id: 'plan', name: 'Plan' },
        ],
      },
      turns: [[chunk('agent_message_chunk', 'ok')]],
    });
    const id = await w.session();
    await w.turn(id, 'first');
    await w.h.invoke('sessions.setMode', { id, mode: 'plan' });
    expect(
      w
        .record()
        .filter((r) => r.method === 'session/set_mode')
        .map((r) => r.params!.modeId),
    ).toEqual(['plan']);
  });

  it('sends images and @ files as content blocks where the agent takes them', async () => {
    w = await AcpWorld.start(
      { image: true, embeddedContext: true, turns: [[chunk('agent_message_chunk', 'seen')]] },
      { files: { 'src/app.ts': 'export const x = 1;\n' } },
    );
    const id = await w.session();
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await w.h.invoke('sessions.send', {
      id,
      text: 'look at @src/app.ts',
      images: [{ media_type: 'image/png', data: png }],
      capabilities: [],
    });
    await w.settled(id);
    const prompt = w.record().find((r) => r.method === 'session/prompt')!.params!.prompt as Record<
      string,
      unknown
    >[];
    expect(prompt[0]).toEqual({ type: 'text', text: 'look at @src/app.ts' });
    expect(prompt[1]).toEqual({ type: 'image', data: png, mimeType: 'image/png' });
    expect(prompt[2]).toMatchObject({
      type: 'resource',
      resource: { uri: `file://${w.h.project}/src/app.ts`, text: 'export const x = 1;\n' },
    });
  });

  it('authenticates with the agent’s method when session/new asks for it', async () => {
    w = await AcpWorld.start({
      requireAuth: true,
      authMethods: [{ id: 'api-key', name: 'API key' }],
      turns: [[chunk('agent_message_chunk', 'signed in')]],
    });
    const id = await w.session();
    const events = await w.turn(id, 'hi');
    expect(ofType(events, 'assistant_message')[0]!.text).toBe('signed in');
    expect(
      w
        .record()
        .filter((r) => r.method)
        .map((r) => r.method),
    ).toEqual(['initialize', 'session/new', 'authenticate', 'session/new', 'session/prompt']);
  });

  it('resumes the agent’s own session with session/load after the host restarts', async () => {
    w = await AcpWorld.start({ loadSession: true, turns: [[chunk('agent_message_chunk', 'ok')]] });
    const id = await w.session();
    const first = await w.turn(id, 'one');
    const acpSession = ofType(first, 'agent_session')[0]!.session_id;
    await w.h.restart();
    const again = await w.turn(id, 'two');
    expect(ofType(again, 'assistant_message')[0]!.text).toBe('ok');
    expect(ofType(again, 'agent_session')).toEqual([]);
    const load = w.record().find((r) => r.method === 'session/load')!;
    expect(load.params).toMatchObject({ sessionId: acpSession, cwd: w.h.project });
  });
});
