import { afterEach, describe, expect, it } from 'vitest';
import { ofType } from '../agent/harness';
import { AcpWorld } from './acp-harness';
import { say } from '../../helpers/acp-steps';

// Issue 30 part 1-2: what an external agent says of itself besides its answers: its own modes
// (session/new `modes`, current_mode_update, set from the header with session/set_mode), its
// session settings (`configOptions`, config_option_update, session/set_config_option), its
// context use and cost (usage_update) and the session's title (session_info_update), each logged
// as the session's own events, through the protocol a window uses.

let w: AcpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const MODES = {
  currentModeId: 'default',
  availableModes: [
    { id: 'default', name: 'Default', description: 'Asks before edits' },
    { id: 'architect', name: 'Architect', description: 'Designs, edits nothing' },
    { id: 'acceptEdits', name: 'Accept edits' },
  ],
};

const setModes = (w: AcpWorld) =>
  w
    .record()
    .filter((r) => r.method === 'session/set_mode')
    .map((r) => r.params!.modeId);

describe('an external agent’s own modes', () => {
  it('logs the modes the agent offers and the one it moves to, and sends the one picked as session/set_mode', async () => {
    w = await AcpWorld.start({
      modes: MODES,
      turns: [[{ update: { sessionUpdate: 'current_mode_update', currentModeId: 'architect' } }]],
    });
    const id = await w.session();
    const events = await w.turn(id, 'plan it');
    const modes = ofType(events, 'agent_modes');
    expect(modes[0]).toMatchObject({
      current: 'default',
      modes: [
        { id: 'default', name: 'Default', description: 'Asks before edits' },
        { id: 'architect', name: 'Architect', description: 'Designs, edits nothing' },
        { id: 'acceptEdits', name: 'Accept edits' },
      ],
    });
    // A mode of its own moves the agent's select, not the app's permission mode.
    expect(modes.at(-1)!.current).toBe('architect');
    expect(ofType(events, 'mode_change')).toEqual([]);

    await w.h.invoke('agents.setMode', { id, mode: 'acceptEdits' });
    expect(setModes(w)).toEqual(['acceptEdits']);
    const after = await w.h.events(id);
    // One of the app's modes by another name: the app's approvals follow it.
    expect(ofType(after, 'mode_change').at(-1)!.mode).toBe('accept-edits');
    expect(ofType(after, 'agent_modes').at(-1)!.current).toBe('acceptEdits');

    const refused = await w.h.invokeError('agents.setMode', { id, mode: 'yolo' });
    expect(refused.message).toMatch(
      /has no mode 'yolo'; its modes: default, architect, acceptEdits/,
    );
    expect(setModes(w)).toEqual(['acceptEdits']);
    // Opened with a window of the newest events only, the session still has them (the header
    // draws them however old they are).
    const opened = await w.h.invoke('sessions.open', { id, limit: 1 });
    const state = opened.snapshot!.agent_state;
    expect(state.find((e) => e.type === 'agent_modes')).toMatchObject({ current: 'acceptEdits' });
  });

  it('sets the mode picked before again in the agent’s next process', async () => {
    w = await AcpWorld.start({ modes: MODES, turns: [[say('ok')]] });
    const id = await w.session();
    await w.turn(id, 'one');
    await w.h.invoke('agents.setMode', { id, mode: 'architect' });
    await w.h.restart();
    // Picking a mode with no agent running starts it, in the mode the log says until then.
    const again = await w.turn(id, 'two');
    expect(setModes(w)).toEqual(['architect', 'architect']);
    expect(ofType(again, 'agent_modes').at(-1)!.current).toBe('architect');
  });

  it('refuses an agent mode for a session of the app’s own agent', async () => {
    w = await AcpWorld.start({ turns: [] });
    const { session } = await w.h.invoke('sessions.create', { project: 'proj' });
    const refused = await w.h.invokeError('agents.setMode', { id: session.id, mode: 'plan' });
    expect(refused.message).toMatch(/the app’s own agent/);
  });
});

describe('an external agent’s session settings', () => {
  const MODEL = {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'sonnet',
    options: [
      {
        group: 'anthropic',
        name: 'Anthropic',
        options: [
          { value: 'sonnet', name: 'Sonnet' },
          { value: 'opus', name: 'Opus', description: 'Slower, stronger' },
        ],
      },
    ],
  };
  const FAST = { id: 'fast', name: 'Fast mode', type: 'boolean', currentValue: false };

  it('logs the settings of session/new and config_option_update, and sends a change as session/set_config_option', async () => {
    w = await AcpWorld.start({
      configOptions: [MODEL, FAST],
      turns: [
        [
          {
            update: {
              sessionUpdate: 'config_option_update',
              configOptions: [MODEL, { ...FAST, currentValue: true }],
            },
          },
        ],
      ],
    });
    const id = await w.session();
    const events = await w.turn(id, 'go');
    const options = ofType(events, 'agent_options');
    expect(options[0]!.options).toEqual([
      {
        type: 'select',
        id: 'model',
        name: 'Model',
        category: 'model',
        current: 'sonnet',
        choices: [
          { value: 'sonnet', name: 'Sonnet', group: 'Anthropic' },
          { value: 'opus', name: 'Opus', description: 'Slower, stronger', group: 'Anthropic' },
        ],
      },
      { type: 'boolean', id: 'fast', name: 'Fast mode', current: false },
    ]);
    expect(options.at(-1)!.options[1]).toMatchObject({ id: 'fast', current: true });

    await w.h.invoke('agents.setOption', { id, option: 'model', value: 'opus' });
    await w.h.invoke('agents.setOption', { id, option: 'fast', value: false });
    expect(
      w
        .record()
        .filter((r) => r.method === 'session/set_config_option')
        .map((r) => r.params),
    ).toEqual([
      expect.objectContaining({ configId: 'model', value: 'opus' }),
      expect.objectContaining({ configId: 'fast', type: 'boolean', value: false }),
    ]);
    const latest = ofType(await w.h.events(id), 'agent_options').at(-1)!.options;
    expect(latest.map((o) => [o.id, o.current])).toEqual([
      ['model', 'opus'],
      ['fast', false],
    ]);

    // A value the agent does not offer is refused here, with the ones it does.
    expect(
      (await w.h.invokeError('agents.setOption', { id, option: 'model', value: 'gpt' })).message,
    ).toMatch(/'Model' takes one of: sonnet, opus/);
    expect(
      (await w.h.invokeError('agents.setOption', { id, option: 'fast', value: 'yes' })).message,
    ).toMatch(/on or off/);
    expect(
      (await w.h.invokeError('agents.setOption', { id, option: 'nope', value: 'x' })).message,
    ).toMatch(/no setting 'nope'/);
  });
});

describe('what an external agent reports of its session', () => {
  it('logs usage_update as the agent’s context meter (changes only) and session_info_update as the title', async () => {
    const usage = {
      update: {
        sessionUpdate: 'usage_update',
        used: 50_000,
        size: 200_000,
        cost: { amount: 0.42, currency: 'USD' },
      },
    };
    w = await AcpWorld.start({
      turns: [
        [
          usage,
          usage,
          { update: { sessionUpdate: 'usage_update', used: 60_000, size: 200_000 } },
          { update: { sessionUpdate: 'session_info_update', title: 'Make the port configurable' } },
          { update: { sessionUpdate: 'session_info_update', title: null } },
        ],
      ],
    });
    const id = await w.session();
    const events = await w.turn(id, 'go');
    expect(
      ofType(events, 'agent_usage').map(({ used, size, cost }) => ({ used, size, cost })),
    ).toEqual([
      { used: 50_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } },
      { used: 60_000, size: 200_000, cost: undefined },
    ]);
    expect(ofType(events, 'session_renamed').at(-1)!.title).toBe('Make the port configurable');
    expect((await w.h.invoke('sessions.list', {})).sessions[0]!.title).toBe(
      'Make the port configurable',
    );
  });

  it('an agent’s title replaces the one the first message gave, never a name the user gave', async () => {
    const titled = (title: string) => [{ update: { sessionUpdate: 'session_info_update', title } }];
    w = await AcpWorld.start({ turns: [titled('Agent title one'), titled('Agent title two')] });
    const id = await w.session();
    await w.turn(id, 'fix the port');
    const title = async () =>
      (await w!.h.invoke('sessions.list', {})).sessions.find((s) => s.id === id)!.title;
    expect(await title()).toBe('Agent title one');
    await w.h.invoke('sessions.rename', { id, title: 'My name for it' });
    await w.turn(id, 'and the host');
    expect(await title()).toBe('My name for it');
    expect(ofType(await w.h.events(id), 'session_renamed').map((e) => [e.title, e.by])).toEqual([
      ['fix the port', 'app'],
      ['Agent title one', 'agent'],
      ['My name for it', undefined],
    ]);
  });
});
