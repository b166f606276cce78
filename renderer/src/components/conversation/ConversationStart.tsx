import { shortcutLabel } from '../../lib/shortcuts';
import { useProjectName } from '../../state/projects-store';

/**
 * A new session's page before its first message, as the peers have one: what the agent can do
 * here and the keys of the message box (@ to mention a file, / for commands), in place of a blank
 * conversation. Gone with the first message.
 */
export function ConversationStart({ project: key }: { project: string | null }) {
  const project = useProjectName(key);
  return (
    <section className="conversation-start" aria-label="Getting started">
      <h2>{project ? `What should the agent do in ${project}?` : 'What should the agent do?'}</h2>
      <p className="muted">
        It reads and searches the project, edits files, runs commands and tests, and asks you before
        it acts in the ways the mode in the header says.
      </p>
      <ul className="start-hints">
        <li>
          <kbd>@</kbd> mention a file to attach it
        </li>
        <li>
          <kbd>/</kbd> run a command or skill (<kbd>/help</kbd> lists them)
        </li>
        <li>
          <kbd>Enter</kbd> send, <kbd>Shift</kbd>+<kbd>Enter</kbd> new line
        </li>
        <li>Paste or drop an image; drop a folder to open it as a project</li>
        <li>
          <kbd>Esc</kbd> stop a run, <kbd>{shortcutLabel('F')}</kbd> find in the conversation
        </li>
      </ul>
    </section>
  );
}
