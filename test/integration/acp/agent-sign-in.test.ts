import { afterEach, describe, expect, it } from 'vitest';
import { ofType } from '../agent/harness';
import { AcpWorld } from './acp-harness';
import { say } from '../../helpers/acp-steps';

// Issue 30 part 1: an external agent that works only signed in (its `authMethods`, an
// auth_required error on session/new or on a prompt) and offers several ways: the session shows a
// card listing them (name and description), the one picked is sent as `authenticate`, and what
// failed is tried again. Declined, the turn fails saying so.

let w: AcpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const METHODS = [
  { id: 'api-key', name: 'API key', description: 'Uses SCRIPTED_API_KEY from your environment' },
  { id: 'browser', name: 'Browser login' },
];
const reply = say('signed in');

/** Sends `text` and returns the sign-in card it brings once it shows. */
async function signInCard(w: AcpWorld, id: string, text: string) {
  const before = ofType(await w.h.events(id), 'elicitation').length;
  await w.h.invoke('sessions.send', { id, text, capabilities: ['approvals'] });
  const events = await w.h.waitFor(
    id,
    (es) => ofType(es, 'elicitation').length > before,
    'the sign-in card',
  );
  return ofType(events, 'elicitation').at(-1)!;
}

/** Picks `method` on the sign-in card and waits for the turn it lets through. */
async function pick(w: AcpWorld, id: string, card: { elicitation_id: string }, method: string) {
  await w.h.invoke('agent.answerElicitation', {
    id,
    elicitation_id: card.elicitation_id,
    action: 'accept',
    content: { method },
  });
  const events = await w.settled(id);
  expect(ofType(events, 'assistant_message')[0]!.text).toBe('signed in');
}

/** The methods the agent was called with, `authenticate` with the method picked. */
const methodsCalled = (w: AcpWorld): string[] =>
  w
    .record()
    .flatMap((r) =>
      r.method === 'authenticate'
        ? [`authenticate ${String(r.params!.methodId)}`]
        : r.method
          ? [r.method]
          : [],
    );

describe('signing in to an external agent', () => {
  it('lists the agent’s methods on a card when session/new asks, and authenticates with the one picked', async () => {
    w = await AcpWorld.start({ requireAuth: true, authMethods: METHODS, turns: [[reply]] });
    const id = await w.session();
    const card = await signInCard(w, id, 'hi');
    expect(card).toMatchObject({ server: 'scripted', asker: 'agent', mode: 'form' });
    expect(card.message).toMatch(/works only signed in/);
    expect(card.form!.fields[0]).toMatchObject({
      kind: 'choice',
      name: 'method',
      required: true,
      options: [
        { value: 'api-key', label: 'API key: Uses SCRIPTED_API_KEY from your environment' },
        { value: 'browser', label: 'Browser login' },
      ],
    });
    await pick(w, id, card, 'browser');
    expect(methodsCalled(w)).toEqual([
      'initialize',
      'session/new',
      'authenticate browser',
      'session/new',
      'session/prompt',
    ]);
  });

  it('signs in when a prompt answers auth_required, then sends the prompt again', async () => {
    w = await AcpWorld.start({ requireAuth: 'prompt', authMethods: METHODS, turns: [[reply]] });
    const id = await w.session();
    const card = await signInCard(w, id, 'hi');
    await pick(w, id, card, 'api-key');
    expect(methodsCalled(w)).toEqual([
      'initialize',
      'session/new',
      'session/prompt',
      'authenticate api-key',
      'session/prompt',
    ]);
  });

  it('fails the turn saying so when the user declines, and asks again at the next message', async () => {
    w = await AcpWorld.start({ requireAuth: true, authMethods: METHODS, turns: [[reply]] });
    const id = await w.session();
    const card = await signInCard(w, id, 'hi');
    await w.h.invoke('agent.answerElicitation', {
      id,
      elicitation_id: card.elicitation_id,
      action: 'decline',
    });
    const events = await w.settled(id);
    expect(ofType(events, 'run_state').at(-1)!.state).toBe('failed');
    expect(ofType(events, 'error').at(-1)!.message).toMatch(
      /you did not sign in to the agent 'scripted'.*send a message to be asked again/,
    );
    expect(methodsCalled(w).filter((m) => m.startsWith('authenticate'))).toEqual([]);
    const again = await signInCard(w, id, 'hi again');
    expect(again.elicitation_id).not.toBe(card.elicitation_id);
  });
});
