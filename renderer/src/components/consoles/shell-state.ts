import type { ShellInfo as HostShell } from '../../../../shared/tools/shell-payload';
import type { ShellInfo as ModelShell } from '../../state/timeline-items';

// One shell's state in words and as a dot, the same on its tab and in its console. The host's
// state wins over the session log's: a shell the log still calls running may have died with a
// host that crashed (no exit was ever logged), and the host's record says so.

export interface ShellState {
  /** The run-dot's class. */
  dot: 'running' | 'idle' | 'failed' | 'stopped';
  /** Short word for the pill: running, exit 0, killed, lost. */
  word: string;
  /** What a screen reader hears and a tooltip shows. */
  label: string;
}

export function shellState(model: ModelShell | null, host: HostShell | null): ShellState {
  const status = host?.status ?? (model?.state === 'running' ? 'running' : 'exited');
  const exit = host ? host.exit_code : (model?.exitCode ?? null);
  if (status === 'running') return { dot: 'running', word: 'running', label: 'running' };
  if (status === 'killed' && host?.kill_reason === 'lost')
    return {
      dot: 'stopped',
      word: 'lost',
      label: 'lost: the app stopped unexpectedly while it ran, and it ended with the app',
    };
  if (status === 'killed') {
    const why = host?.kill_reason === 'shutdown' ? ' when the app quit' : '';
    return { dot: 'failed', word: 'killed', label: `killed${why}` };
  }
  return {
    dot: exit === 0 ? 'idle' : 'failed',
    word: `exit ${exit ?? '?'}`,
    label: `exited, exit ${exit ?? '?'}`,
  };
}
