// Why a run's signal aborted. A user's stop writes results for what was cut short; a shutdown
// writes nothing, so pending approvals and questions are still pending when the host restarts.

export class RunAborted extends Error {
  override name = 'RunAborted';
  constructor(readonly why: 'stop' | 'shutdown') {
    super(why === 'stop' ? 'stopped by the user' : 'the host is shutting down');
  }
}

export function abortReason(signal: AbortSignal): RunAborted | null {
  return signal.aborted
    ? signal.reason instanceof RunAborted
      ? signal.reason
      : new RunAborted('stop')
    : null;
}
