import { useCallback, useRef, useState } from 'react';
import { addImages, type ImageAttachment } from '../../lib/image-attachments';
import { AttachmentChip } from '../attachments/AttachmentChip';

/** The images waiting in the message box, and what was refused on the last paste or drop. */
export function useImageAttachments() {
  const [items, setItemsState] = useState<ImageAttachment[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  /** Adds still reading their files: a message of images alone can be sent meanwhile. */
  const [reading, setReading] = useState(0);
  // Adds run one after another, so two quick pastes both count against the limits.
  const current = useRef<ImageAttachment[]>([]);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const setItems = useCallback((next: ImageAttachment[]) => {
    current.current = next;
    setItemsState(next);
  }, []);
  /** Adds `files` after the chips held, or in their place (`replace`: "Edit and resend"). */
  const add = useCallback(
    (files: File[], { replace = false } = {}) => {
      setReading((n) => n + 1);
      return (queue.current = queue.current.then(async () => {
        const kept = replace ? [] : current.current;
        try {
          const { added, refusals: refused } = await addImages(kept, files);
          setItems([...kept, ...added]);
          setRefusals(refused);
        } catch (err) {
          if (replace) setItems([]);
          setRefusals([`The image could not be read: ${(err as Error).message}`]);
        } finally {
          setReading((n) => n - 1);
        }
      }));
    },
    [setItems],
  );
  const remove = useCallback(
    (id: string) => {
      setItems(current.current.filter((i) => i.id !== id));
      setRefusals([]);
    },
    [setItems],
  );
  const clear = useCallback(() => {
    setItems([]);
    setRefusals([]);
  }, [setItems]);
  /** The chips once every add asked for so far is in: what a send right now carries. */
  const settled = useCallback(() => queue.current.then(() => current.current), []);
  return { items, refusals, add, remove, clear, settled, reading: reading > 0 };
}

/**
 * One chip per image: thumbnail, name, size and a remove button. Removing hands focus to
 * `onRemoved` (the message box), so it never falls to the page.
 */
export function ImageChips({
  items,
  refusals,
  onRemove,
}: {
  items: readonly ImageAttachment[];
  refusals: readonly string[];
  onRemove(id: string): void;
}) {
  if (!items.length && !refusals.length) return null;
  return (
    <div className="image-chips attachment-chips">
      {refusals.map((r) => (
        <div key={r} className="error-text" role="alert">
          {r}
        </div>
      ))}
      {items.length > 0 && (
        <ul aria-label="Attached images">
          {items.map((a) => (
            <AttachmentChip
              key={a.id}
              name={a.name}
              detail={a.description}
              title={a.description}
              lead={<img src={`data:${a.mediaType};base64,${a.data}`} alt="" />}
              onRemove={() => onRemove(a.id)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
