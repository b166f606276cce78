import { useEffect, useRef, type KeyboardEvent } from 'react';

// A small menu of a list row's actions (a session's Rename, Export, Delete): opened by the row's
// "⋯" button, a right click, or Shift+F10 / the Menu key on the row. Keyboard as a menu: Up/Down
// move, Enter runs, Escape closes back to the row. One button per row instead of one per action,
// so a row is one Tab stop and the hover controls cover no more than the end of a title.

export interface RowMenuItem {
  label: string;
  /** The key that does the same on the row, shown beside the label. */
  shortcut?: string;
  danger?: boolean;
  run(): void;
}

export function RowMenu({
  label,
  items,
  onClose,
}: {
  label: string;
  items: RowMenuItem[];
  /** `refocus`: the menu closed from the keyboard, so focus goes back to the row. */
  onClose(refocus: boolean): void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    // A press anywhere outside closes it, as a menu does.
    const away = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener('pointerdown', away, true);
    return () => document.removeEventListener('pointerdown', away, true);
  }, [onClose]);

  const onKey = (e: KeyboardEvent) => {
    const entries = [
      ...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []),
    ];
    const at = entries.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : entries.length - 1;
      entries[(at + step) % entries.length]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose(true);
    } else if (e.key === 'Tab') {
      onClose(false);
    }
  };

  return (
    <div ref={menu} role="menu" aria-label={label} className="row-menu" onKeyDown={onKey}>
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={item.danger ? 'danger' : undefined}
          onClick={() => {
            onClose(false);
            item.run();
          }}
        >
          <span>{item.label}</span>
          {item.shortcut && <kbd aria-hidden="true">{item.shortcut}</kbd>}
        </button>
      ))}
    </div>
  );
}
