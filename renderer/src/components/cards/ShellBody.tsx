import type { ToolPayload } from '../../../../shared/tools/payload';
import { useUi } from '../../state/ui-store';
import { shellOutput } from './payload-text';

/** Output lines shown before the card is expanded: head and tail both matter in a build log. */
const PREVIEW_LINES = 12;

/** aider_shell_tool and shell_session_tool results: output, and a way to the live console. */
export function ShellBody({ payload, expanded }: { payload?: ToolPayload; expanded: boolean }) {
  const setActive = useUi((s) => s.setActiveConsole);
  const setDock = useUi((s) => s.setDockOpen);
  const shellId = typeof payload?.shell_id === 'string' ? payload.shell_id : null;
  const output = shellOutput(payload);
  const lines = output.split('\n');
  const cut = !expanded && lines.length > PREVIEW_LINES * 2;
  const shown = cut
    ? [
        ...lines.slice(0, PREVIEW_LINES),
        `… ${lines.length - PREVIEW_LINES * 2} more lines …`,
        ...lines.slice(-PREVIEW_LINES),
      ].join('\n')
    : output;
  return (
    <div className="shell-body">
      {output && <pre className="code small term">{shown}</pre>}
      {!output && payload && !shellId && <p className="muted small">No output.</p>}
      {shellId && (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setDock(true);
            setActive(shellId);
          }}
        >
          Show console {shellId}
        </button>
      )}
    </div>
  );
}
