import { useEffect, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useClient } from '../../client-context';
import { activeMention, insertMention, type ActiveMention } from '../../lib/mention-token';
import { mentionRows, type MentionListing, type MentionRow } from '../../lib/mention-rows';

// Typing `@` in the message box lists the session's project files (the host ranks them fuzzily,
// from the same walk list_dir does), then the matching resources of the MCP servers the session
// can use; arrows move, Enter or Tab picks, Esc closes. The pick becomes `@path` (a resource:
// `@server:uri`) in the text, and the host attaches its content when the message is sent.

export const MENTION_LIST_ID = 'mention-list';
const optionId = (i: number) => `mention-option-${i}`;

interface Listing extends MentionListing {
  total: number;
  root: string | null;
}

export interface MentionMenu {
  /** The list, drawn above the message box (null while no `@` is being typed). */
  menu: ReactNode;
  /** Handles a key of the message box; true when the menu used it. */
  onKey(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The box changed: its caret (typing moves it before the selection event says so). */
  follow(caret: number): void;
  /** ARIA for the message box: the list it controls and the option in front. */
  boxProps: Record<string, string | undefined>;
}

export function useMentionMenu(
  sessionId: string,
  box: RefObject<HTMLTextAreaElement | null>,
  draft: string,
  setDraft: (text: string) => void,
): MentionMenu {
  const client = useClient();
  const [caret, setCaret] = useState(0);
  const [listing, setListing] = useState<Listing | null>(null);
  const [active, setActive] = useState(0);
  const [closedAt, setClosedAt] = useState<number | null>(null);

  // The caret moves with keys and clicks as well as typing: follow the box's selection.
  useEffect(() => {
    const onSelection = () => {
      const el = box.current;
      if (el && document.activeElement === el) setCaret(el.selectionStart);
    };
    document.addEventListener('selectionchange', onSelection);
    return () => document.removeEventListener('selectionchange', onSelection);
  }, [box]);

  const token: ActiveMention | null = activeMention(draft, Math.min(caret, draft.length));
  const open = token !== null && closedAt !== token.start;
  const query = token?.query;

  useEffect(() => {
    if (query === undefined || !open) return;
    let live = true;
    client
      .invoke('files.search', { id: sessionId, query, limit: 20 })
      .then((r) => {
        if (!live) return;
        setListing({ query, ...r });
        setActive(0);
      })
      .catch(() => live && setListing({ query, files: [], total: 0, root: null, resources: [] }));
    return () => {
      live = false;
    };
  }, [client, sessionId, query, open]);

  const stale = listing !== null && query !== undefined && listing.query !== query;
  const shown: MentionRow[] =
    open && listing && query !== undefined ? mentionRows(listing, query) : [];
  const pick = (path: string) => {
    if (!token) return;
    const { text, caret: at } = insertMention(draft, token, path);
    setDraft(text);
    setCaret(at);
    requestAnimationFrame(() => {
      const el = box.current;
      if (!el) return;
      el.focus();
      // Keys typed before this frame have moved the caret already: putting it back here would
      // send the next ones in front of them ("do?" came out "o? ... d").
      if (el.value === text) el.setSelectionRange(at, at);
    });
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !token) return false;
    if (e.key === 'Escape') {
      // Closes the list only; the run is not stopped (that Esc listener skips handled keys).
      e.preventDefault();
      setClosedAt(token.start);
      return true;
    }
    if (!shown.length) {
      // An answer for an earlier query is all there is: wait for this one rather than send.
      if (stale && ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab')) {
        e.preventDefault();
        return true;
      }
      return false;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + shown.length) % shown.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      e.preventDefault();
      pick(shown[Math.min(active, shown.length - 1)]!.ref);
      return true;
    }
    return false;
  };

  let menu: ReactNode = null;
  if (open && listing) {
    menu = (
      <div className="mention-menu">
        {shown.length ? (
          <ul id={MENTION_LIST_ID} role="listbox" aria-label="Files">
            {shown.map((item, i) => (
              <li
                key={item.ref}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'active' : undefined}
                // Picking with the mouse must not take focus from the message box first.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(item.ref)}
                onMouseEnter={() => setActive(i)}
              >
                <span className="mention-name">{item.name}</span>
                {item.where && <span className="mention-dir">{item.where}</span>}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mention-empty" role="status">
            {stale
              ? `Looking for “${query}”…`
              : listing.root === null
                ? 'This session has no project folder, so there are no files to mention.'
                : listing.total === 0
                  ? 'No files in this project (or all of them are ignored).'
                  : `No file matches “${listing.query}”.`}
          </p>
        )}
        <p className="mention-hint muted small" aria-hidden="true">
          ↑↓ to choose · Enter or Tab to insert · Esc to close
        </p>
      </div>
    );
  }

  return {
    menu,
    onKey,
    follow: setCaret,
    boxProps: {
      'aria-autocomplete': 'list',
      'aria-controls': shown.length ? MENTION_LIST_ID : undefined,
      'aria-activedescendant': shown.length ? optionId(active) : undefined,
    },
  };
}
