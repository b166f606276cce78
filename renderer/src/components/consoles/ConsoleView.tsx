import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useConsoleRegistry } from '../../consoles/console-context';
import type { ShellInfo as ModelShell } from '../../state/timeline-items';
import { Dialog } from '../common/Dialog';
import { errorText } from '../../state/agent-actions';
import { formatDuration } from '../../lib/format';
import { safeExternalHref } from '../../lib/links';
import { shellState } from './shell-state';

/** The search options xterm's search addon takes; matches are highlighted in the scrollback. */
const SEARCH_DECORATIONS = {
  matchOverviewRuler: '#888',
  activeMatchColorOverviewRuler: '#f5a623',
  matchBackground: '#f5a62355',
  activeMatchBackground: '#f5a623',
};

/**
 * One live console: status, search, copy, kill, an input line, and the xterm screen (drawn by
 * the registry's terminal, moved into this view while it is shown).
 */
export function ConsoleView({ sessionId, shell }: { sessionId: string; shell: ModelShell }) {
  const registry = useConsoleRegistry();
  const entry = registry.get(sessionId, shell.shellId);
  const snap = useSyncExternalStore(entry.subscribe, entry.getSnapshot);
  const hostRef = useRef<HTMLDivElement>(null);
  const [searching, setSearching] = useState(false);
  const [term, setTerm] = useState('');
  const [line, setLine] = useState('');
  const [confirmKill, setConfirmKill] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    entry.attach(host);
    return () => entry.detach(host);
  }, [entry]);

  useEffect(() => {
    if (!note) return;
    const t = setTimeout(() => setNote(null), 2000);
    return () => clearTimeout(t);
  }, [note]);

  const info = snap.info;
  const state = shellState(shell, info);
  const running = state.dot === 'running';
  const command = info?.command ?? shell.command;

  // A screen reader hears the keys too when the terminal takes focus.
  useEffect(() => {
    const box = entry.term.textarea;
    if (!box) return;
    if (running) box.setAttribute('aria-describedby', `keys-${shell.shellId}`);
    else box.removeAttribute('aria-describedby');
  }, [entry, running, shell.shellId]);

  const find = (dir: 'next' | 'prev') => {
    if (!term) return;
    const found =
      dir === 'next'
        ? entry.search.findNext(term, { decorations: SEARCH_DECORATIONS })
        : entry.search.findPrevious(term, { decorations: SEARCH_DECORATIONS });
    setNote(found ? null : 'No match');
  };
  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      find(e.shiftKey ? 'prev' : 'next');
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      entry.search.clearDecorations();
      setSearching(false);
      entry.term.focus();
    }
  };
  const copy = async () => {
    const text = entry.term.hasSelection() ? entry.term.getSelection() : entry.text();
    try {
      await navigator.clipboard.writeText(text);
      setNote(entry.term.hasSelection() ? 'Copied the selection' : 'Copied all output');
    } catch (err) {
      setNote(`Copy failed: ${errorText(err)}`);
    }
  };
  const sendLine = (e: FormEvent) => {
    e.preventDefault();
    entry.inputLine(line);
    setLine('');
  };
  const kill = async () => {
    setConfirmKill(false);
    try {
      await entry.kill();
    } catch (err) {
      setNote(`Kill failed: ${errorText(err)}`);
    }
  };

  return (
    <section className="console" role="region" aria-label={`Console: ${command}`}>
      <header className="console-head">
        <span
          className={`state-pill ${state.dot}`}
          role="status"
          aria-label={`Status: ${state.label}`}
          title={state.label}
        >
          {state.word}
        </span>
        <code className="console-command" title={`${command}\n${info?.cwd ?? shell.cwd}`}>
          {command}
        </code>
        {info && (
          <ShellClock
            startedAt={info.started_at}
            endedAt={running ? null : (info.ended_at ?? info.started_at + info.duration_ms)}
          />
        )}
        <span className="spacer" />
        <button
          type="button"
          className="small"
          aria-pressed={searching}
          onClick={() => setSearching(!searching)}
        >
          Search
        </button>
        <button type="button" className="small" onClick={() => void copy()}>
          Copy
        </button>
        <button
          type="button"
          className="small danger"
          disabled={!running}
          onClick={() => setConfirmKill(true)}
        >
          Kill
        </button>
      </header>
      {info && info.urls.length > 0 && (
        <div className="console-urls small">
          {info.urls.map((u) => {
            const href = safeExternalHref(u);
            return href ? (
              <a key={u} href={href} target="_blank" rel="noopener noreferrer">
                {u}
              </a>
            ) : null;
          })}
        </div>
      )}
      {searching && (
        <div className="console-search">
          <input
            type="search"
            aria-label="Search console output"
            autoFocus
            value={term}
            placeholder="Find (Enter, Shift+Enter)"
            onChange={(e) => setTerm(e.target.value)}
            onKeyDown={onSearchKey}
          />
          <button
            type="button"
            className="small"
            onClick={() => find('prev')}
            aria-label="Previous match"
          >
            ↑
          </button>
          <button
            type="button"
            className="small"
            onClick={() => find('next')}
            aria-label="Next match"
          >
            ↓
          </button>
        </div>
      )}
      {(note || snap.error || snap.missed > 0) && (
        <div className="console-note small" role="status">
          {note ??
            snap.error ??
            `${snap.missed} characters were evicted from the buffer before they were shown.`}
        </div>
      )}
      <div className="console-term" ref={hostRef}>
        {/* Over the screen's corner while it has focus: no line of the screen is given up to it. */}
        {running && (
          <p className="console-keys small" id={`keys-${shell.shellId}`}>
            Tab completes in the shell · <kbd>Shift</kbd>+<kbd>Tab</kbd> leaves the console
          </p>
        )}
      </div>
      <form className="console-input" onSubmit={sendLine}>
        <input
          aria-label={`Input to ${command}`}
          value={line}
          disabled={!running}
          placeholder={
            running
              ? 'Type a line for stdin, Enter to send (or type in the console)'
              : 'The process has ended'
          }
          onChange={(e) => setLine(e.target.value)}
        />
      </form>
      {confirmKill && (
        <Dialog label="Kill the process?" onClose={() => setConfirmKill(false)} className="confirm">
          <h2>Kill “{command}”?</h2>
          <p>Its whole process group gets SIGTERM, then SIGKILL after a grace period.</p>
          <div className="actions">
            <button type="button" onClick={() => setConfirmKill(false)} autoFocus>
              Cancel
            </button>
            <button type="button" className="danger" onClick={() => void kill()}>
              Kill
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

/** How long the shell has run: ticking while it runs, fixed once it ended. */
function ShellClock({ startedAt, endedAt }: { startedAt: number; endedAt: number | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endedAt !== null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [endedAt]);
  return <span className="muted small">{formatDuration((endedAt ?? now) - startedAt)}</span>;
}
