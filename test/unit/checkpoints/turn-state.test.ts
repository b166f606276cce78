import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  beforeTaken,
  latestTurnSeq,
  TurnState,
} from '../../../electron/host/checkpoints/session-checkpoints';
import { ArrayLog, rewind, rewindActions } from '../../helpers/session-log';

// The turn a write call snapshots before (and whether it already has its `before` snapshot) is
// followed event by event; it must always equal what the whole log says, whatever the user
// messages, snapshots, rewinds (of the conversation or only the files) and their undos, and
// however many events arrive between two write calls.

const action = fc.oneof(
  fc.constant({ k: 'user' as const }),
  fc.record({
    k: fc.constant('checkpoint' as const),
    phase: fc.constantFrom('before' as const, 'after' as const),
    n: fc.nat(),
    latest: fc.boolean(),
  }),
  ...rewindActions,
  fc.constant({ k: 'noise' as const }),
  fc.constant({ k: 'check' as const }),
);

describe('TurnState', () => {
  it('equals the latest turn and its before snapshot as read from the whole log', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 60, size: 'max' }), (actions) => {
        const log = new ArrayLog();
        const { all } = log;
        const append = log.append.bind(log);
        const state = new TurnState(log);
        const users: number[] = [];
        const rewinds: number[] = [];
        const check = () => {
          const { turn, taken } = state.sync();
          const expected = latestTurnSeq(all);
          expect(turn).toBe(expected);
          expect(taken).toBe(expected !== null && beforeTaken(all.slice(expected), expected));
        };
        for (const a of actions) {
          if (a.k === 'user')
            users.push(
              append({ type: 'user_message', text: 'x', message_id: `m${all.length}` }).seq,
            );
          else if (a.k === 'checkpoint') {
            const turn = a.latest ? latestTurnSeq(all) : users[a.n % Math.max(1, users.length)];
            if (turn === null || turn === undefined) continue;
            append({
              type: 'checkpoint',
              turn_seq: turn,
              phase: a.phase,
              root: '/p',
              commit: 'c',
              large_files: [],
            });
          } else if (a.k === 'rewind') {
            if (!users.length) continue;
            rewinds.push(append(rewind(users[a.n % users.length]!, a.mode)).seq);
          } else if (a.k === 'undo') {
            if (!rewinds.length) continue;
            append(rewind(0, 'both', rewinds[a.n % rewinds.length]));
          } else if (a.k === 'noise') append({ type: 'run_state', state: 'running' });
          else check();
        }
        check();
      }),
      { numRuns: 400 },
    );
  });
});
