import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useClient } from '../../client-context';
import { useSessionView, useSessionViews } from '../../state/session-views-context';
import { useFind, useFindStore } from '../../state/find-store';
import { loadOlderEvents } from '../../state/session-sync';
import { matchAt, messageMatches, positionOf, type MessageMatches } from '../../lib/find-matches';
import { focusComposer } from '../../lib/focus';
import { isMac, isPrimary, shortcutLabel } from '../../lib/shortcuts';

/** Typing pauses this long before the host searches the pages not loaded (one read per pause). */
const HOST_FIND_DEBOUNCE_MS = 150;

/**
 * Ctrl+F: finds text in the conversation's messages, loaded or not. The session is paged, so the
 * host counts the part the view has not loaded and the view counts the rest; going to a match in
 * an older page loads pages back to it. Enter / Shift+Enter (or the arrows) move, Esc closes.
 */
export function FindBar({ sessionId }: { sessionId: string }) {
  const client = useClient();
  const { open, query, target, focus } = useFind((s) => s);
  const find = useFindStore().getState;
  const input = useRef<HTMLInputElement>(null);
  const views = useSessionViews();
  const items = useSessionView(sessionId, (v) => v.items);
  const base = useSessionView(sessionId, (v) => v.base);
  const [older, setOlder] = useState<{ query: string; matches: MessageMatches[] } | null>(null);
  const [busy, setBusy] = useState(false);

  // Ctrl+F opens (or refocuses) the bar; closing the conversation resets it.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!isPrimary(e, 'f') || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      find().show();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      find().close();
    };
  }, [find]);
  useEffect(() => {
    if (open) {
      input.current?.focus();
      input.current?.select();
    }
  }, [open, focus]);

  // The part before the loaded window: asked of the host once typing pauses.
  const hasOlder = base > 0;
  useEffect(() => {
    if (!open || !query || !hasOlder) return;
    let live = true;
    const timer = setTimeout(() => {
      client
        .invoke('sessions.find', { id: sessionId, query, before: base })
        .then((r) => live && setOlder({ query, matches: r.matches }))
        .catch(() => live && setOlder({ query, matches: [] }));
    }, HOST_FIND_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // A page loaded later needs no new search: its matches are filtered to what is still older.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, sessionId, open, query, hasOlder]);

  const all = useMemo(() => {
    if (!query) return [];
    const loaded = messageMatches(items, query);
    const before = older?.query === query ? older.matches.filter((m) => m.seq < base) : [];
    return [...before, ...loaded];
  }, [items, query, older, base]);
  const total = all.reduce((n, m) => n + m.count, 0);
  const position = target ? positionOf(all, target.seq, target.k) : -1;
  const waitingForHost = hasOlder && !!query && older?.query !== query;

  const go = async (pos: number) => {
    const m = matchAt(all, ((pos % total) + total) % total);
    if (!m) return;
    // A match in a page not loaded yet: load pages back to it, then show it.
    setBusy(true);
    try {
      for (let guard = 0; guard < 10_000; guard++) {
        const b = views.get(sessionId).state.base;
        if (b <= m.seq || b === 0) break;
        await loadOlderEvents(client, views, sessionId);
      }
    } catch {
      // The page did not come: the match is shown as far as it can be.
    } finally {
      setBusy(false);
    }
    find().goTo(m.seq, m.k);
  };

  // The first result goes to the newest match (the one nearest the end, where the reader is).
  useEffect(() => {
    if (open && query && !target && total > 0 && !waitingForHost) void go(total - 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, query, target, total, waitingForHost]);

  if (!open) return null;
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      // Handled here: the run is not stopped by this Esc.
      e.preventDefault();
      find().close();
      focusComposer();
    } else if (e.key === 'Enter' || e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!total) return;
      const back = e.key === 'ArrowUp' || (e.key === 'Enter' && e.shiftKey);
      void go(position < 0 ? total - 1 : position + (back ? -1 : 1));
    }
  };
  const status = !query
    ? ''
    : waitingForHost && total === 0
      ? 'Searching…'
      : total === 0
        ? 'No matches'
        : `${position < 0 ? '?' : position + 1} of ${total}`;

  return (
    <div className="find-bar" role="search" aria-label="Find in conversation">
      <input
        ref={input}
        type="search"
        aria-label="Find in conversation"
        placeholder="Find in conversation"
        value={query}
        onChange={(e) => find().setQuery(e.target.value)}
        onKeyDown={onKey}
        aria-keyshortcuts={isMac ? 'Meta+F' : 'Control+F'}
      />
      <span className="find-count" role="status" aria-live="polite" aria-busy={busy || undefined}>
        {status}
      </span>
      <button
        type="button"
        aria-label="Previous match"
        title="Previous match (Shift+Enter)"
        aria-keyshortcuts="Shift+Enter"
        disabled={!total}
        onClick={() => void go(position < 0 ? total - 1 : position - 1)}
      >
        ↑
      </button>
      <button
        type="button"
        aria-label="Next match"
        title="Next match (Enter)"
        aria-keyshortcuts="Enter"
        disabled={!total}
        onClick={() => void go(position < 0 ? total - 1 : position + 1)}
      >
        ↓
      </button>
      <button
        type="button"
        aria-label="Close find"
        title={`Close (Esc) · ${shortcutLabel('F')} to find again`}
        onClick={() => {
          find().close();
          focusComposer();
        }}
      >
        ✕
      </button>
    </div>
  );
}
