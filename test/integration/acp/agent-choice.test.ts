import { afterEach, describe, expect, it } from 'vitest';
import { ofType } from '../agent/harness';
import { ReferenceClient, type Frame } from '../../helpers/reference-remote-client';
import { AcpWorld } from './acp-harness';
import { PUSH_PERMISSION } from '../../helpers/acp-steps';

// Issue 30 parts 1-2, what the window and the phone are given: the agents "New session" offers
// (presets off with why), the session's agent changed before its first message and fixed after,
// and an external agent's permission request decided from a phone with remote rights with one
// of the agent's own options.

let w: AcpWorld | undefined;
const phones: ReferenceClient[] = [];
afterEach(async () => {
  for (const p of phones.splice(0)) await p.close().catch(() => undefined);
  await w?.close();
  w = undefined;
});

describe('choosing an external agent', () => {
  it('lists the configured agent and the presets whose command is missing, off with what to install', async () => {
    w = await AcpWorld.start({ turns: [] });
    const { agents } = await w.h.invoke('agents.list', {});
    expect(agents[0]).toMatchObject({ name: 'scripted', preset: false, available: true });
    expect(agents[0]!.reason).toBeUndefined();
    const presets = agents.filter((a) => a.preset);
    expect(presets.map((a) => a.name)).toEqual(['claude-code', 'codex', 'gemini']);
    const claude = presets.find((a) => a.name === 'claude-code')!;
    expect(claude).toMatchObject({ label: 'Claude Code', command: 'claude-code-acp' });
    // The test machine has none of them on PATH.
    expect(claude.available).toBe(false);
    expect(claude.reason).toMatch(/'claude-code-acp' is not on PATH: install Claude Code/);
  });

  it('changes the session’s agent until its first message, then refuses with why', async () => {
    w = await AcpWorld.start({
      turns: [
        [
          {
            update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } },
          },
        ],
      ],
    });
    const { session } = await w.h.invoke('sessions.create', { project: 'proj' });
    expect(session.agent).toBeUndefined();
    const set = await w.h.invoke('sessions.setAgent', { id: session.id, agent: 'scripted' });
    expect(set.session.agent).toBe('scripted');
    expect(
      (await w.h.invokeError('sessions.setAgent', { id: session.id, agent: 'nope' })).message,
    ).toMatch(/no agent 'nope'/);
    // The turn runs on the agent it was changed to.
    const events = await w.turn(session.id, 'hello');
    expect(ofType(events, 'assistant_message').map((m) => m.text)).toEqual(['hi']);
    expect(ofType(await w.h.events(session.id), 'agent_change')).toEqual([
      expect.objectContaining({ agent: 'scripted' }),
    ]);
    const refused = await w.h.invokeError('sessions.setAgent', { id: session.id, agent: null });
    expect(refused.message).toMatch(/already has messages/);
    expect((await w.h.invoke('sessions.list', {})).sessions[0]!.agent).toBe('scripted');
  });
});

describe('an external agent’s approval on a phone with remote rights', () => {
  it('shows the agent’s options and answers the agent with the one picked there', async () => {
    w = await AcpWorld.start(
      { turns: [[PUSH_PERMISSION]] },
      { config: { permission_mode: 'ask', devices: { host: '127.0.0.1' } } },
    );
    const offer = await w.h.invoke('devices.createOffer', { remote: true });
    const phone = await ReferenceClient.connect(offer.url, offer.fingerprint);
    phones.push(phone);
    expect((await phone.pair(offer.code, 'Pixel')).type).toBe('paired');

    const id = await w.session();
    await w.h.invoke('sessions.send', { id, text: 'push it', capabilities: ['approvals'] });
    await w.h.waitFor(
      id,
      (es) => es.some((e) => e.type === 'run_state' && e.state === 'waiting'),
      'the session waiting on the approval',
    );
    const pending = await phone.request('remote_pending');
    const item = (pending.items as Frame[])[0]!;
    expect(item).toMatchObject({ kind: 'approval', tool: 'Push the branch' });
    expect(item.options).toEqual([
      { id: 'once', name: 'Allow once', kind: 'allow_once' },
      { id: 'always', name: 'Always allow pushes', kind: 'allow_always' },
      { id: 'no', name: 'Reject', kind: 'reject_once' },
    ]);
    const decide = (option: string, decision: 'allow' | 'deny') =>
      phone.request('remote_decide', {
        session_id: id,
        approval_id: item.approval_id,
        hash: item.hash,
        decision,
        option,
      });
    // An option of the other side is refused and decides nothing.
    expect(await decide('no', 'allow')).toMatchObject({ type: 'remote_error', code: 'invalid' });
    expect(await decide('always', 'allow')).toMatchObject({ type: 'remote_done' });

    const events = await w.settled(id);
    expect(ofType(events, 'approval_decision')[0]).toMatchObject({
      decision: 'allow',
      by: 'user',
      option: 'always',
      via: { device_name: 'Pixel' },
    });
    expect(w.record().find((r) => r.step === 'permission')!.result).toEqual({
      outcome: { outcome: 'selected', optionId: 'always' },
    });
  });
});
