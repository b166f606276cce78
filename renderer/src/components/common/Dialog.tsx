import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: the browser traps focus, Escape closes it, and
 * the page behind is inert. `label` is its accessible name. The control marked `data-autofocus`, if
 * any, gets the focus when it opens (else the browser's pick: the first control).
 */
export function Dialog({
  label,
  onClose,
  children,
  className = '',
}: {
  label: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) {
      d.showModal();
      // showModal focuses the first control; a later one marked data-autofocus (a confirm's Cancel
      // after a choice) is where Enter should land. React's autoFocus ran before the dialog opened.
      d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={label}
      className={`dialog ${className}`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onMouseDown={(e) => {
        // A press on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === ref.current) onClose();
      }}
    >
      <div className="dialog-content">{children}</div>
    </dialog>
  );
}
