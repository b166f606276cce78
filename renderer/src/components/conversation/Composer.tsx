import {
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { COMPOSER_ID } from '../../lib/focus';
import { useSlashMenu } from './SlashMenu';
import { useMentionMenu } from './MentionMenu';
import { useUi, useUiStore } from '../../state/ui-store';
import { askNotificationPermission } from '../../state/waiting-signals';
import type { ClientCapability } from '../../../../shared/protocol/capabilities';
import { imageCandidates, imageFiles, imagesWire } from '../../lib/image-attachments';
import { ImageChips, useImageAttachments } from './ImageChips';
import { PastedChips, usePastedTexts } from '../attachments/PastedText';
import { isLongPaste } from '../../../../shared/attachments/pasted-text';
import { useSessionView } from '../../state/session-views-context';
import { IMAGE_MEDIA_TYPES } from '../../../../shared/images/image-file';
import { useHostQuery } from '../../lib/use-host-query';
import { FirstRunSetup } from './FirstRunSetup';

/** What this UI can do for a run: draw panels, ask the person, show approvals. */
export const CAPABILITIES: ClientCapability[] = ['generative_ui', 'ask_user', 'approvals'];

const COMPOSER_HINT_ID = 'composer-hint';
/** What the message box's keys do, for its description. */
export const COMPOSER_HINT =
  'Enter sends, Shift+Enter starts a new line, @ mentions a file, / runs a command or skill.';

/**
 * The message box: Enter sends, Shift+Enter is a new line. While a run is live and nothing is
 * typed, Send is Stop (as Esc); a message typed meanwhile is sent, the run picks it up.
 * With no model set up there is no Send: the model setup form stands above the box (a line over
 * a conversation with history, the whole form once something is typed), Enter goes to it, and
 * what was typed is sent as soon as a model is saved.
 */
export function Composer({
  sessionId,
  pendingQuestion,
}: {
  sessionId: string;
  pendingQuestion: boolean;
}) {
  const client = useClient();
  const ui = useUiStore();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const live = useSessionView(
    sessionId,
    (v) => v.runState === 'running' || v.runState === 'waiting',
  );
  const hasItems = useSessionView(sessionId, (v) => v.hasItems);
  const models = useHostQuery('models.status', {}, 'settings');
  const noModel = !!models.data && !models.data.selected;
  const setup = useRef<HTMLElement>(null);
  const mention = useMentionMenu(sessionId, box, draft, setDraft);
  const slash = useSlashMenu(sessionId, box, draft, setDraft);
  const images = useImageAttachments();
  const pastes = usePastedTexts();
  // "Edit and resend" on a message of yours puts it here whole, in place of what the box held:
  // its words, and its images and pasted texts as chips, each removable before it is sent again.
  const asked = useUi((s) => s.draft);
  const { add: addImageFiles } = images;
  const { replace: replacePastes } = pastes;
  useEffect(() => {
    if (!asked) return;
    const taken = ui.getState().takeDraft(sessionId);
    if (!taken) return;
    setDraft(taken.text);
    void addImageFiles(imageFiles(taken.images ?? []), { replace: true });
    replacePastes(taken.pastes ?? []);
    box.current?.focus();
  }, [asked, ui, sessionId, addImageFiles, replacePastes]);

  const canSend =
    !!draft.trim() || images.items.length > 0 || images.reading || pastes.items.length > 0;
  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const text = draft.trim();
    if (!canSend || sending) return;
    // A built-in (/new, /compact, /model …) runs here and is never sent to the model.
    if (slash.run(text)) return;
    if (noModel) {
      // The form is open above (something is typed): its first field is where to go on.
      setup.current?.querySelector<HTMLElement>('select, input, button')?.focus();
      return;
    }
    setSending(true);
    setError(null);
    ui.getState().followLatest(sessionId);
    // A send is a user gesture: the one moment a browser lets the app ask to notify later.
    if (ui.getState().notify) askNotificationPermission();
    try {
      // Images still being read (a paste or an edit a moment ago) go with the message.
      const attached = imagesWire(await images.settled());
      if (!text && !attached.length && !pastes.items.length) return;
      await client.invoke('sessions.send', {
        id: sessionId,
        text,
        ...(attached.length ? { images: attached } : {}),
        ...(pastes.items.length
          ? { pastes: pastes.items.map((p) => ({ name: p.name, text: p.text })) }
          : {}),
        capabilities: CAPABILITIES,
      });
      setDraft('');
      images.clear();
      pastes.clear();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSending(false);
      box.current?.focus();
    }
  };

  // What was typed while no model was set up goes once one is: the setup form promised it.
  const heldForModel = useRef(false);
  const sendHeld = useEffectEvent(() => void send());
  useEffect(() => {
    if (noModel) heldForModel.current = true;
    else if (models.data && heldForModel.current) {
      heldForModel.current = false;
      sendHeld();
    }
  }, [noModel, models.data]);

  const stop = async () => {
    setError(null);
    try {
      await client.invoke('sessions.stop', { id: sessionId });
    } catch (err) {
      setError(errorText(err));
    }
    box.current?.focus();
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKey(e) || mention.onKey(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  // Pasted or dropped image files become chips; a drop of anything typeless (a folder) is left
  // to the window. A paste with no file in it is text, as ever.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = imageCandidates(e.clipboardData.files);
    if (files.length) {
      e.preventDefault();
      void images.add(files);
      return;
    }
    // A long text becomes a chip instead of a wall in the box (shared/attachments/pasted-text.ts).
    const text = e.clipboardData.getData('text/plain');
    if (!isLongPaste(text)) return;
    e.preventDefault();
    pastes.add(text);
  };
  const onDragOver = (e: DragEvent) => {
    if ([...e.dataTransfer.items].some((i) => i.kind === 'file' && i.type !== '')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  };
  const onDrop = (e: DragEvent) => {
    const files = imageCandidates(e.dataTransfer.files);
    if (!files.length) return;
    e.preventDefault();
    e.stopPropagation();
    void images.add(files);
    box.current?.focus();
  };

  return (
    <>
      <FirstRunSetup ref={setup} compact={hasItems && !canSend} held={canSend} />
      <form
        className="composer"
        aria-label="Write a message"
        onSubmit={send}
        onDragOver={onDragOver}
        onDrop={onDrop}
      >
        {error && (
          <div className="error-text" role="alert">
            Not sent. {error}
          </div>
        )}
        {slash.panel}
        {slash.menu}
        {mention.menu}
        <ImageChips
          items={images.items}
          refusals={images.refusals}
          onRemove={(id) => {
            images.remove(id);
            box.current?.focus();
          }}
        />
        <PastedChips
          label="Pasted text"
          items={pastes.items}
          refusal={pastes.refusal}
          onRemove={(i) => {
            const held = pastes.items[i];
            if (held) pastes.remove(held.id);
            box.current?.focus();
          }}
        />
        <div className="composer-row">
          <textarea
            ref={box}
            id={COMPOSER_ID}
            aria-label="Message"
            value={draft}
            rows={Math.min(10, Math.max(2, draft.split('\n').length))}
            onChange={(e) => {
              setDraft(e.target.value);
              mention.follow(e.target.selectionStart);
            }}
            {...(slash.boxProps ?? mention.boxProps)}
            onKeyDown={onKey}
            onPaste={onPaste}
            // Short enough for two lines of the narrowest box: a placeholder is never cut. How to
            // send, break a line, mention and command is the description (and a new session's page).
            placeholder={
              pendingQuestion ? 'Answer above, or write a new message…' : 'Ask the agent…'
            }
            aria-describedby={COMPOSER_HINT_ID}
            autoFocus
          />
          <span id={COMPOSER_HINT_ID} className="visually-hidden">
            {COMPOSER_HINT}
          </span>
          {/* Attach beside paste and drop: the same chips, the same limits. */}
          <input
            ref={picker}
            type="file"
            accept={IMAGE_MEDIA_TYPES.join(',')}
            multiple
            hidden
            onChange={(e) => {
              void images.add(imageCandidates(e.target.files));
              e.target.value = '';
              box.current?.focus();
            }}
          />
          <button
            type="button"
            className="attach"
            aria-label="Attach images"
            title="Attach images (or paste or drop them)"
            onClick={() => picker.current?.click()}
          >
            {/* A paperclip drawn here: an emoji is a box where no emoji font is installed. */}
            <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24">
              <path
                d="M21 11.5l-8.5 8.5a5 5 0 0 1-7-7L14 4.5a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 7.5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </button>
          {live && !canSend ? (
            <button
              type="button"
              className="primary stop"
              onClick={() => void stop()}
              aria-keyshortcuts="Escape"
              title="Stop the run (Esc); what it already wrote stays"
            >
              Stop
            </button>
          ) : noModel ? null : (
            <button
              type="submit"
              className="primary"
              disabled={!canSend || sending}
              aria-keyshortcuts="Enter"
              title="Send (Enter)"
            >
              Send
            </button>
          )}
        </div>
      </form>
    </>
  );
}
