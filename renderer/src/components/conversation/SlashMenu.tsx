import { useEffect, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useClient } from '../../client-context';
import { useAppStores } from '../../state/session-views-context';
import { errorText } from '../../state/agent-actions';
import { createSession } from '../../state/session-actions';
import { focusById, MODE_SELECT_ID, MODEL_SELECT_ID } from '../../lib/focus';
import { permissionModeWire, type PermissionModeWire } from '../../../../shared/protocol/common';
import { SlashHelp } from './SlashHelp';
import { useSessionView } from '../../state/session-views-context';
import { useSessions } from '../../state/sessions-store';

// While the message starts with "/" and no argument yet: the app's own commands first (run here,
// never sent to the model), then the user's slash commands and skills that match (issue 20),
// then connected MCP servers' prompts (`/server:prompt`, their arguments as the hint), each with
// its description; in a session on an external ACP agent, the commands that agent offers
// (available_commands_update), marked as the agent's: sent to it as typed. Arrows move, Enter runs a built-in (or fills a command's "/name "),
// Tab completes the name, Esc closes; the keys are the @ mention menu's (MentionMenu.tsx).

interface Entry {
  name: string;
  description: string;
  argument_hint?: string;
  kind: 'command' | 'skill' | 'prompt' | 'agent';
  scope: 'user' | 'project';
  /** An MCP prompt's server. */
  file: string;
}

export interface Builtin {
  name: string;
  hint?: string;
  description: string;
}

/** The built-in commands; a user command or skill of the same name is hidden behind them. */
export const BUILTINS: readonly Builtin[] = [
  { name: 'new', description: 'Start a new session in this project' },
  { name: 'clear', description: 'Start the context over (the conversation stays on screen)' },
  { name: 'compact', description: 'Summarize the conversation so far to free context' },
  { name: 'model', hint: '[name]', description: "Set this session's model, or choose it" },
  {
    name: 'mode',
    hint: `[${permissionModeWire.options.join('|')}]`,
    description: 'Set the permission mode, or choose it',
  },
  { name: 'help', description: 'Commands and keyboard shortcuts' },
];
const BUILTIN_NAMES = new Set(BUILTINS.map((b) => b.name));

const TYPING_NAME = /^\/([A-Za-z0-9_.:-]*)$/;
/** A whole built-in as sent: "/name" and an optional argument. */
const BUILTIN_LINE = /^\/([a-z]+)(?:\s+(.*))?$/s;

export const SLASH_LIST_ID = 'slash-list';
const optionId = (i: number) => `slash-option-${i}`;

type Option = { builtin: Builtin } | { entry: Entry };
const optionName = (o: Option) => ('builtin' in o ? o.builtin.name : o.entry.name);

/** "plan", "Plan", "accept edits" or "Ask first": the mode it names, or null. */
export function parseMode(arg: string): PermissionModeWire | null {
  const key = arg.trim().toLowerCase().replace(/\s+/g, '-');
  const mode = key === 'ask-first' ? 'ask' : key;
  return permissionModeWire.safeParse(mode).data ?? null;
}

interface Notice {
  text: string;
  tone: 'info' | 'danger';
  busy?: boolean;
}

export interface SlashMenu {
  /** The list, drawn above the message box (null while no "/name" is being typed). */
  menu: ReactNode;
  /** What a built-in left to say (compacting, a refusal), and the help panel when open. */
  panel: ReactNode;
  /** Handles a key of the message box; true when the menu used it. */
  onKey(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Runs `text` when it is a built-in (then it is not to be sent); false otherwise. */
  run(text: string): boolean;
  /** ARIA for the message box while the list is open (else undefined). */
  boxProps: Record<string, string | undefined> | undefined;
}

export function useSlashMenu(
  sessionId: string,
  box: RefObject<HTMLTextAreaElement | null>,
  draft: string,
  setDraft: (text: string) => void,
): SlashMenu {
  const client = useClient();
  const stores = useAppStores();
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [help, setHelp] = useState(false);
  const typing = TYPING_NAME.exec(draft);
  const listing = typing !== null;
  const agentCommands = useSessionView(sessionId, (v) => v.agentCommands);
  // An external agent is sent `/name` as typed: the app's own commands, skills and prompts would
  // not be expanded for it, so only its own are offered.
  const external = useSessions((s) => !!s.sessions.find((x) => x.id === sessionId)?.agent);

  useEffect(() => {
    if (!listing) return;
    let live = true;
    client
      .invoke('commands.list', { id: sessionId })
      .then((r) => live && setEntries(r.commands))
      .catch(() => live && setEntries([]));
    return () => {
      live = false;
    };
  }, [listing, client, sessionId]);

  const typed = typing?.[1] ?? '';
  // Esc closes the list until the name typed changes.
  const open = typing !== null && closed !== draft;
  const shown: Option[] = open
    ? [
        ...BUILTINS.filter((b) => b.name.startsWith(typed)).map((builtin) => ({ builtin })),
        ...(external ? [] : (entries ?? []))
          .filter((e) => e.name.startsWith(typed) && !BUILTIN_NAMES.has(e.name))
          .map((entry) => ({ entry })),
        ...agentCommands
          .filter((c) => c.name.startsWith(typed) && !BUILTIN_NAMES.has(c.name))
          .map((c): Option => ({
            entry: {
              name: c.name,
              description: c.description,
              ...(c.hint ? { argument_hint: c.hint } : {}),
              kind: 'agent',
              scope: 'project',
              file: '',
            },
          })),
      ]
    : [];
  const at = Math.min(active, Math.max(0, shown.length - 1));
  // The one in front starts at the top again whenever the name typed changes.
  const [typedBefore, setTypedBefore] = useState(typed);
  if (typedBefore !== typed) {
    setTypedBefore(typed);
    setActive(0);
  }

  const refocus = () => requestAnimationFrame(() => box.current?.focus());
  const fail = (err: unknown) => setNotice({ text: errorText(err), tone: 'danger' });

  const compact = async (clear: boolean) => {
    setNotice({
      text: clear ? 'Clearing the context…' : 'Compacting the conversation…',
      tone: 'info',
      busy: true,
    });
    try {
      const r = await client.invoke('sessions.compact', {
        id: sessionId,
        ...(clear ? { clear: true } : {}),
      });
      setNotice(
        r.compacted ? null : { text: r.message ?? 'There was nothing to compact.', tone: 'info' },
      );
    } catch (err) {
      fail(err);
    }
  };

  const setModel = async (name: string) => {
    try {
      let model: string | null = name;
      if (name.toLowerCase() === 'default') model = null;
      else if (!name.includes(':')) {
        // The header's picker names models `provider:name`; a bare name is the default provider's.
        const status = await client.invoke('models.status', {});
        if (status.selected) model = `${status.selected.provider}:${name}`;
      }
      await client.invoke('sessions.setModel', { id: sessionId, model });
    } catch (err) {
      fail(err);
    }
  };

  const setMode = async (arg: string) => {
    const mode = parseMode(arg);
    if (!mode) {
      setNotice({
        text: `No mode “${arg}”: use ${permissionModeWire.options.join(', ')}.`,
        tone: 'danger',
      });
      return;
    }
    try {
      await client.invoke('sessions.setMode', { id: sessionId, mode });
    } catch (err) {
      fail(err);
    }
  };

  /** Runs the built-in `name` with its argument (may be empty). */
  const runBuiltin = (name: string, arg: string) => {
    setNotice(null);
    setDraft('');
    switch (name) {
      case 'new':
        void createSession(client, stores).catch(fail);
        return;
      case 'clear':
      case 'compact':
        void compact(name === 'clear');
        refocus();
        return;
      case 'model':
        if (arg) {
          void setModel(arg);
          refocus();
        } else requestAnimationFrame(() => focusById(MODEL_SELECT_ID));
        return;
      case 'mode':
        if (arg) {
          void setMode(arg);
          refocus();
        } else requestAnimationFrame(() => focusById(MODE_SELECT_ID));
        return;
      case 'help':
        setHelp(true);
        return;
    }
  };

  const run = (text: string): boolean => {
    const line = BUILTIN_LINE.exec(text.trim());
    if (!line || !BUILTIN_NAMES.has(line[1]!)) return false;
    runBuiltin(line[1]!, (line[2] ?? '').trim());
    return true;
  };

  const fill = (name: string) => {
    setDraft(`/${name} `);
    refocus();
  };
  const choose = (o: Option) => {
    if ('builtin' in o) runBuiltin(o.builtin.name, '');
    else fill(o.entry.name);
  };

  // A summary can take a while: Stop (or Esc in the message box) ends it, and the host answers
  // that the context is as it was.
  const stopCompacting = () => {
    client.invoke('sessions.stop', { id: sessionId }).catch(fail);
    refocus();
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open && notice?.busy && e.key === 'Escape') {
      e.preventDefault();
      stopCompacting();
      return true;
    }
    if (!open) return false;
    if (e.key === 'Escape') {
      // Closes the list only; the run is not stopped (that Esc listener skips handled keys).
      e.preventDefault();
      setClosed(draft);
      return true;
    }
    if (!shown.length) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((at + step + shown.length) % shown.length);
      return true;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      choose(shown[at]!);
      return true;
    }
    if (e.key === 'Tab' && !e.shiftKey) {
      // Completes the name, for an argument to follow.
      e.preventDefault();
      fill(optionName(shown[at]!));
      return true;
    }
    return false;
  };

  let menu: ReactNode = null;
  if (shown.length) {
    menu = (
      <div className="mention-menu slash-menu">
        <ul id={SLASH_LIST_ID} role="listbox" aria-label="Commands">
          {shown.map((o, i) => {
            const b = 'builtin' in o ? o.builtin : null;
            const e = 'entry' in o ? o.entry : null;
            return (
              <li
                key={b ? `builtin:${b.name}` : `${e!.kind}:${e!.name}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === at}
                className={i === at ? 'active' : undefined}
                // Picking with the mouse must not take focus from the message box first.
                onMouseDown={(ev) => ev.preventDefault()}
                onClick={() => choose(o)}
                onMouseEnter={() => setActive(i)}
              >
                <code className="slash-name">/{optionName(o)}</code>
                {(b?.hint ?? e?.argument_hint) && (
                  <span className="muted small">{b?.hint ?? e?.argument_hint}</span>
                )}
                <span className="slash-description muted small">
                  {b ? b.description : e!.description}
                </span>
                <span className="slash-origin muted small">
                  {b
                    ? 'built-in'
                    : e!.kind === 'agent'
                      ? "the agent's"
                      : e!.kind === 'prompt'
                        ? `prompt of MCP server ${e!.file}`
                        : `${e!.kind === 'skill' ? 'skill, ' : ''}${e!.scope === 'user' ? 'yours' : 'project'}`}
                </span>
              </li>
            );
          })}
        </ul>
        <p className="mention-hint muted small" aria-hidden="true">
          ↑↓ to choose · Enter to run · Tab to complete · Esc to close
        </p>
      </div>
    );
  }

  const panel = (
    <>
      {notice && (
        <p
          className={`notice slash-notice ${notice.tone}`}
          role={notice.tone === 'danger' ? 'alert' : 'status'}
          aria-busy={notice.busy ? true : undefined}
        >
          {notice.text}
          {notice.busy && (
            <button
              type="button"
              className="link-button"
              aria-keyshortcuts="Escape"
              onClick={stopCompacting}
            >
              Stop
            </button>
          )}
        </p>
      )}
      {help && (
        <SlashHelp
          sessionId={sessionId}
          // Closed, the <dialog> gives focus back to the message box it was opened from.
          onClose={() => setHelp(false)}
        />
      )}
    </>
  );

  return {
    menu,
    panel,
    onKey,
    run,
    boxProps: shown.length
      ? {
          'aria-autocomplete': 'list',
          'aria-controls': SLASH_LIST_ID,
          'aria-activedescendant': optionId(at),
        }
      : undefined,
  };
}
