import type { SessionCheckpoints } from '../checkpoints/session-checkpoints';
import type { HandlerMap } from '../rpc/router';
import type { SessionManager } from '../sessions/session-manager';
import { exportSession, forkSession } from '../sessions/session-transfer';

type CheckpointHandlers = Pick<
  HandlerMap,
  | 'sessions.rewindPreview'
  | 'sessions.rewind'
  | 'sessions.undoRewind'
  | 'sessions.fork'
  | 'sessions.export'
>;

export function checkpointHandlers(
  sessions: SessionManager,
  checkpoints: SessionCheckpoints,
): CheckpointHandlers {
  return {
    'sessions.rewindPreview': async (req) =>
      checkpoints.preview(await sessions.get(req.id), req.to_seq),
    'sessions.rewind': async (req) => {
      const e = await checkpoints.rewind(await sessions.get(req.id), {
        toSeq: req.to_seq,
        mode: req.mode,
        include: req.include,
      });
      return { seq: e.seq };
    },
    'sessions.undoRewind': async (req) => {
      const e = await checkpoints.undo(await sessions.get(req.id), req.rewind_seq);
      return { seq: e.seq };
    },
    'sessions.fork': async (req) => ({
      session: (await forkSession(sessions, await sessions.get(req.id), req.at_seq)).summary(),
    }),
    'sessions.export': async (req) => exportSession(await sessions.get(req.id), req.format),
  };
}
