import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEventOf } from '../../../shared/protocol/events';
import { abi, networkGap } from '../../reliability/attacks/attack-world';
import { localName, startChildHttpOrigin } from '../../helpers/net-fixtures';
import { ofType } from '../agent/harness';
import { AcpWorld } from './acp-harness';

// Issue 30 part 3: what an external agent does through the client (fs/read_text_file,
// fs/write_text_file, terminal/create) goes through the same rules, approvals and checkpoints as
// the app's own agent's tool calls: the user's permission rules (Bash(...) read by bash's
// grammar, Read/Edit paths, Network(...) for a terminal's connections), the session's mode with
// its approval card, and the files the app obeys or runs asked for even in auto mode.

const local = await localName();

let w: AcpWorld | undefined;
let origin: Awaited<ReturnType<typeof startChildHttpOrigin>> | undefined;
afterEach(async () => {
  await w?.close();
  origin?.close();
  w = undefined;
  origin = undefined;
});

type Approval = SessionEventOf<'approval_request'>;

/** Sends `text`; `decide` answers each approval card in turn until the run settles. */
async function turnDeciding(
  world: AcpWorld,
  id: string,
  text: string,
  decide: (request: Approval) => { decision: 'allow' | 'deny'; reason?: string; option?: string },
) {
  const before = (await world.h.events(id)).length;
  await world.h.invoke('sessions.send', { id, text, capabilities: ['approvals'] });
  const answered = new Set<string>();
  for (;;) {
    const events = await world.h.waitFor(
      id,
      (es) =>
        es.some(
          (e) =>
            e.seq >= before &&
            ((e.type === 'approval_request' && !answered.has(e.approval_id)) ||
              (e.type === 'run_state' && ['idle', 'stopped', 'failed'].includes(e.state))),
        ),
      'an approval or the run to settle',
    );
    const open = ofType(events, 'approval_request').find(
      (r) => r.seq >= before && !answered.has(r.approval_id),
    );
    if (!open) return events.filter((e) => e.seq >= before);
    answered.add(open.approval_id);
    await world.h.invoke('agent.decideApproval', {
      id,
      approval_id: open.approval_id,
      ...decide(open),
    });
  }
}

const steps = (world: AcpWorld) => world.record().filter((r) => r.step);

describe('an external agent’s client calls are judged like the app’s own tool calls', () => {
  it('ask mode: its write and its terminal are approval cards; the allowed write is made after the turn’s checkpoint, the denied command never starts', async () => {
    w = await AcpWorld.start(
      {
        turns: [
          [
            { write: { path: 'ROOT/a.txt', content: 'new\n' } },
            { terminal: { command: 'echo', args: ['hi'] } },
          ],
        ],
      },
      { files: { 'a.txt': 'old\n' } },
    );
    const id = await w.session();
    const cards: Approval[] = [];
    const events = await turnDeciding(w, id, 'go', (r) => {
      cards.push(r);
      return r.tool === 'file_edit_tool'
        ? { decision: 'allow' }
        : { decision: 'deny', reason: 'not now' };
    });
    expect(cards.map((c) => [c.tool, c.summary])).toEqual([
      ['file_edit_tool', 'Edit a.txt'],
      ['aider_shell_tool', 'Run: echo hi'],
    ]);
    expect(cards[0]!.detail).toContain('-old');
    expect(cards[0]!.detail).toContain('+new');
    expect(readFileSync(join(w.h.project, 'a.txt'), 'utf8')).toBe('new\n');
    const [write, terminal] = steps(w);
    expect(write).toEqual({ step: 'write', result: {} });
    expect(terminal!.error).toMatch(/The user denied this call: not now/);
    expect(ofType(events, 'shell_started')).toHaveLength(0);
    // The turn's checkpoint was taken before the write was decided (and so before it was made).
    const checkpoint = ofType(events, 'checkpoint').find((c) => c.phase === 'before')!;
    expect(checkpoint.seq).toBeLessThan(ofType(events, 'approval_decision')[0]!.seq);
  });

  it('deny rules hold in auto mode: Bash(rm:*) stops the agent’s terminal however rm is spelled, Read(...) stops its read', async () => {
    w = await AcpWorld.start(
      {
        turns: [
          [
            { terminal: { command: 'FOO=1 rm', args: ['victim.txt'] } },
            { terminal: { command: "sh -c 'rm victim.txt'" } },
            { terminal: { command: '/bin/rm', args: ['victim.txt'] } },
            { terminal: { command: 'echo hi | xargs rm victim.txt' } },
            { read: { path: 'ROOT/secret.txt' } },
            { terminal: { command: 'echo', args: ['still works'] } },
          ],
        ],
      },
      {
        files: { 'victim.txt': 'keep me\n', 'secret.txt': 'the secret\n' },
        config: {
          permission_mode: 'auto',
          permissions: { deny: ['Bash(rm:*)', 'Read(secret.txt)'] },
        },
      },
    );
    const id = await w.session();
    const events = await w.turn(id, 'go');
    const [a, b, c, d, read, control] = steps(w);
    for (const s of [a, b, c, d]) expect(s!.error).toMatch(/permission rule deny "Bash\(rm:\*\)"/);
    expect(read!.error).toMatch(/permission rule deny "Read\(secret\.txt\)"/);
    expect(JSON.stringify(read)).not.toContain('the secret');
    expect(control!.result).toMatchObject({ output: 'still works\n' });
    expect(readFileSync(join(w.h.project, 'victim.txt'), 'utf8')).toBe('keep me\n');
    expect(ofType(events, 'approval_request')).toHaveLength(0);
  });

  it('allow rules let a call through ask mode without a card, only when bash’s grammar says every command is allowed', async () => {
    w = await AcpWorld.start(
      {
        turns: [
          [
            { terminal: { command: 'echo', args: ['allowed'] } },
            { write: { path: 'ROOT/src/x.ts', content: 'export {};\n' } },
            { terminal: { command: 'echo hi && touch pwned' } },
          ],
        ],
      },
      { config: { permissions: { allow: ['Bash(echo:*)', 'Edit(src/**)'] } } },
    );
    const id = await w.session();
    const cards: Approval[] = [];
    await turnDeciding(w, id, 'go', (r) => {
      cards.push(r);
      return { decision: 'deny' };
    });
    expect(cards.map((c) => c.summary)).toEqual(['Run: echo hi && touch pwned']);
    const [echo, write, compound] = steps(w);
    expect(echo!.result).toMatchObject({ output: 'allowed\n' });
    expect(write).toEqual({ step: 'write', result: {} });
    expect(readFileSync(join(w.h.project, 'src', 'x.ts'), 'utf8')).toBe('export {};\n');
    expect(compound!.error).toMatch(/denied/);
    expect(existsSync(join(w.h.project, 'pwned'))).toBe(false);
  });

  it('a write to a file the app obeys is an approval even in auto mode, naming the file; denied, nothing is written', async () => {
    w = await AcpWorld.start(
      {
        turns: [
          [
            { write: { path: 'ROOT/.mewbo/settings.json', content: '{"hooks":{}}' } },
            { write: { path: 'ROOT/.mcp.json', content: '{"mcpServers":{}}' } },
            { write: { path: 'ROOT/plain.txt', content: 'no card\n' } },
          ],
        ],
      },
      { config: { permission_mode: 'auto' } },
    );
    const id = await w.session();
    const cards: Approval[] = [];
    await turnDeciding(w, id, 'go', (r) => {
      cards.push(r);
      return { decision: r.policy_files?.includes('.mcp.json') ? 'allow' : 'deny' };
    });
    expect(cards.map((c) => c.policy_files)).toEqual([['.mewbo/settings.json'], ['.mcp.json']]);
    expect(cards[0]!.summary).toContain('asks in every mode');
    const [settings, mcp, plain] = steps(w);
    expect(settings!.error).toMatch(/denied/);
    expect(existsSync(join(w.h.project, '.mewbo', 'settings.json'))).toBe(false);
    expect(mcp).toEqual({ step: 'write', result: {} });
    expect(readFileSync(join(w.h.project, '.mcp.json'), 'utf8')).toBe('{"mcpServers":{}}');
    expect(plain).toEqual({ step: 'write', result: {} });
  });

  it('the user’s allow of the agent’s own request carries out the write it named, once: no second card for it, a card for the next', async () => {
    w = await AcpWorld.start(
      {
        turns: [
          [
            {
              permission: {
                toolCall: {
                  toolCallId: 'edit-1',
                  title: 'Edit a.txt',
                  kind: 'edit',
                  rawInput: { file_path: 'ROOT/a.txt' },
                },
                options: [
                  { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
                ],
              },
            },
            // As Claude Code's edit does: read, then write; the read needs no approval, so it
            // does not use the one the user gave.
            { read: { path: 'ROOT/a.txt' } },
            { write: { path: 'ROOT/a.txt', content: 'approved\n' } },
            { write: { path: 'ROOT/a.txt', content: 'again\n' } },
          ],
        ],
      },
      { files: { 'a.txt': 'old\n' } },
    );
    const id = await w.session();
    const cards: Approval[] = [];
    await turnDeciding(w, id, 'go', (r) => {
      cards.push(r);
      return r.options ? { decision: 'allow', option: 'yes' } : { decision: 'deny' };
    });
    expect(cards.map((c) => c.tool)).toEqual(['Edit a.txt', 'file_edit_tool']);
    const [permission, read, first, second] = steps(w);
    expect(permission!.result).toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    expect(read).toEqual({ step: 'read', result: { content: 'old\n' } });
    expect(first).toEqual({ step: 'write', result: {} });
    expect(second!.error).toMatch(/denied/);
    expect(readFileSync(join(w.h.project, 'a.txt'), 'utf8')).toBe('approved\n');
  });

  describe.runIf(abi >= 4 && networkGap === null && local !== null)(
    'a terminal’s connections answer to Network(...) rules',
    () => {
      const fetch = (name: string, port: number) => ({
        terminal: { command: `curl -sS http://${name}:${port}/from-agent; echo " exit $?"` },
      });

      it('allowed by Network(name) in auto mode, the connection reaches the server', async () => {
        origin = await startChildHttpOrigin(local!.address);
        w = await AcpWorld.start(
          { turns: [[fetch(local!.name, origin.port)]] },
          {
            config: {
              permission_mode: 'auto',
              permissions: { allow: [`Network(${local!.name})`] },
              sandbox: { network: { local_ports: [origin.port] } },
            },
          },
        );
        await w.turn(await w.session(), 'go');
        expect(steps(w)[0]!.result).toMatchObject({
          output: expect.stringContaining('origin saw GET /from-agent'),
        });
        expect(origin.seen).toEqual(['/from-agent']);
      });

      it('with no rule naming it, auto mode refuses it and nothing reaches the server', async () => {
        origin = await startChildHttpOrigin(local!.address);
        w = await AcpWorld.start(
          { turns: [[fetch(local!.name, origin.port)]] },
          {
            config: {
              permission_mode: 'auto',
              sandbox: { network: { local_ports: [origin.port] } },
            },
          },
        );
        await w.turn(await w.session(), 'go');
        expect((steps(w)[0]!.result as { output: string }).output).not.toContain('origin saw');
        expect(origin.seen).toEqual([]);
      });
    },
  );
});
