import type { ReactNode } from 'react';

/**
 * One attachment in the message box or in a sent message: a leading picture (an image's
 * thumbnail, a text icon), its name, a detail (size, lines), and, where it applies, an open
 * button (the name) and a remove button. Images and pasted text share it, so every attachment
 * looks and works alike from the mouse and the keyboard.
 */
export function AttachmentChip({
  name,
  detail,
  title,
  lead,
  onOpen,
  onRemove,
}: {
  name: string;
  detail?: string;
  title?: string;
  lead: ReactNode;
  onOpen?: () => void;
  onRemove?: () => void;
}) {
  return (
    <li className="attachment-chip" title={title}>
      {lead}
      {onOpen ? (
        <button
          type="button"
          className="attachment-chip-name link-button"
          aria-label={`Open ${name}`}
          onClick={onOpen}
        >
          {name}
        </button>
      ) : (
        <span className="attachment-chip-name">{name}</span>
      )}
      {detail && <span className="attachment-chip-detail">{detail}</span>}
      {onRemove && (
        <button
          type="button"
          className="attachment-chip-remove"
          aria-label={`Remove ${name}`}
          title={`Remove ${name}`}
          onClick={onRemove}
        >
          ×
        </button>
      )}
    </li>
  );
}
