// Where keyboard focus goes when what held it is gone: the message box, never <body> (a person on
// the keyboard would otherwise have to Tab through the whole page to get back).

export const COMPOSER_ID = 'composer-input';
/** The header's drop-downs, which /model and /mode move focus to. */
export const MODEL_SELECT_ID = 'session-model';
export const MODE_SELECT_ID = 'session-mode';

export function focusById(id: string): void {
  document.getElementById(id)?.focus();
}

export function focusComposer(): void {
  const box = document.getElementById(COMPOSER_ID);
  if (box && !box.hasAttribute('disabled')) box.focus();
}

/**
 * Returns focus to the composer when the focused element disappears or turns disabled (a card's
 * button after its decision, a closed dialog's button). A click on plain text also leaves focus on
 * <body>, but its element is still there and enabled: that is left alone (it may be a selection).
 */
export function keepFocusInApp(win: Window): () => void {
  const onFocusOut = (e: FocusEvent) => {
    if (e.relatedTarget) return;
    const was = e.target as HTMLElement | null;
    win.requestAnimationFrame(() => {
      const doc = win.document;
      if (doc.activeElement && doc.activeElement !== doc.body) return;
      if (doc.querySelector('dialog[open]')) return;
      if (was && was.isConnected && !was.matches(':disabled')) return;
      focusComposer();
    });
  };
  win.addEventListener('focusout', onFocusOut);
  return () => win.removeEventListener('focusout', onFocusOut);
}
