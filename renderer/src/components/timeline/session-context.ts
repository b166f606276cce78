import { createContext, useContext } from 'react';
import { useUi } from '../../state/ui-store';

/** The session a timeline row belongs to (cards that answer or decide need it). */
export const SessionIdContext = createContext<string>('');

export function useSessionId(): string {
  return useContext(SessionIdContext);
}

/**
 * Whether the user opened or closed a card, and the setter. Keyed by session and event: the same
 * event number in another session is another card.
 */
export function useCardOpen(itemKey: string): [boolean | undefined, (open: boolean) => void] {
  const key = `${useSessionId()}/${itemKey}`;
  const stored = useUi((s) => s.expanded[key]);
  const setExpanded = useUi((s) => s.setExpanded);
  return [stored, (open) => setExpanded(key, open)];
}
