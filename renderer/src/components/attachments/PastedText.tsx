import { useCallback, useState } from 'react';
import {
  PASTED_MAX_TOTAL_CHARS,
  PASTES_PER_MESSAGE,
  lineCount,
  pasteName,
  type PastedText,
} from '../../../../shared/attachments/pasted-text';
import { Dialog } from '../common/Dialog';
import { AttachmentChip } from './AttachmentChip';

// Long pastes as chips: held here until the message is sent, openable to read, removable.

interface Held extends PastedText {
  id: number;
}

const megabytes = (n: number) => `${(n / 1_000_000).toFixed(1)} million characters`;

/** A chip's short size: 812 chars, 4.2k chars, 1.0M chars. */
function chars(n: number): string {
  if (n < 1_000) return `${n} chars`;
  if (n < 1_000_000) return `${(n / 1_000).toFixed(1)}k chars`;
  return `${(n / 1_000_000).toFixed(1)}M chars`;
}

/** Why `text` cannot join the pastes `held`, in the composer's words; null when it fits. */
function refusalFor(held: readonly PastedText[], text: string): string | null {
  const total = held.reduce((n, p) => n + p.text.length, 0) + text.length;
  if (held.length >= PASTES_PER_MESSAGE)
    return `Not attached: a message carries at most ${PASTES_PER_MESSAGE} pasted texts. Send these first.`;
  if (total > PASTED_MAX_TOTAL_CHARS)
    return `Not attached: this paste is ${megabytes(text.length)}, and a message carries at most ${megabytes(PASTED_MAX_TOTAL_CHARS)} of pasted text. Save it as a file in the project and mention it with @ instead.`;
  return null;
}

/** `held` with each of `pastes` that fits the limits, and why the last one that did not was refused. */
function admit(held: readonly Held[], pastes: readonly PastedText[]) {
  const items = [...held];
  let refusal: string | null = null;
  for (const p of pastes) {
    const why = refusalFor(items, p.text);
    if (why) refusal = why;
    else items.push({ id: (items.at(-1)?.id ?? 0) + 1, name: p.name, text: p.text });
  }
  return { items, refusal };
}

/** The long pastes waiting in the message box, and why the last one was refused. */
export function usePastedTexts() {
  const [items, setItems] = useState<Held[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const take = useCallback((next: ReturnType<typeof admit>) => {
    setItems(next.items);
    setRefusal(next.refusal);
  }, []);
  const add = useCallback(
    (text: string) => take(admit(items, [{ name: pasteName(text), text }])),
    [items, take],
  );
  /** A sent message's pastes in place of the chips held ("Edit and resend"), under the same limits. */
  const replace = useCallback((pastes: readonly PastedText[]) => take(admit([], pastes)), [take]);
  const remove = useCallback((id: number) => {
    setItems((held) => held.filter((p) => p.id !== id));
    setRefusal(null);
  }, []);
  const clear = useCallback(() => {
    setItems([]);
    setRefusal(null);
  }, []);
  return { items, refusal, add, replace, remove, clear };
}

/** The chips of pasted texts: each opens to read, and in the message box can be removed. */
export function PastedChips({
  items,
  refusal = null,
  onRemove,
  label,
}: {
  items: readonly (PastedText & { id?: number })[];
  refusal?: string | null;
  onRemove?: (index: number) => void;
  label: string;
}) {
  const [open, setOpen] = useState<number | null>(null);
  if (!items.length && !refusal) return null;
  const shown = open === null ? undefined : items[open];
  return (
    <div className="attachment-chips">
      {refusal && (
        <div className="error-text" role="alert">
          {refusal}
        </div>
      )}
      {items.length > 0 && (
        <ul aria-label={label}>
          {items.map((p, i) => (
            <AttachmentChip
              key={p.id ?? i}
              name={items.length > 1 ? `${p.name} (${i + 1})` : p.name}
              detail={chars(p.text.length)}
              title={`${p.text.length.toLocaleString('en-US')} characters, sent to the agent as text with the message`}
              lead={
                <span className="attachment-chip-icon" aria-hidden="true">
                  ¶
                </span>
              }
              onOpen={() => setOpen(i)}
              onRemove={onRemove && (() => onRemove(i))}
            />
          ))}
        </ul>
      )}
      {shown && <PastedTextDialog paste={shown} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** Lines shown at once: a megabyte as one text node lays out slowly; the rest is a click away. */
const SHOWN_LINES = 2_000;

function PastedTextDialog({ paste, onClose }: { paste: PastedText; onClose: () => void }) {
  const [all, setAll] = useState(false);
  const lines = lineCount(paste.text);
  let text = paste.text;
  if (!all && lines > SHOWN_LINES) {
    let at = -1;
    for (let n = 0; n < SHOWN_LINES; n++) at = paste.text.indexOf('\n', at + 1);
    text = paste.text.slice(0, at + 1);
  }
  return (
    <Dialog label={paste.name} onClose={onClose} className="pasted-text-dialog">
      <h2>{paste.name}</h2>
      <pre className="pasted-text" tabIndex={0} aria-label="Pasted text">
        {text}
      </pre>
      <div className="actions">
        {text.length < paste.text.length && (
          <button type="button" onClick={() => setAll(true)}>
            Show all {lines.toLocaleString('en-US')} lines
          </button>
        )}
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
