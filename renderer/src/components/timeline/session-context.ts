import { createContext, useContext } from 'react';

/** The session a timeline row belongs to (cards that answer or decide need it). */
export const SessionIdContext = createContext<string>('');

export function useSessionId(): string {
  return useContext(SessionIdContext);
}
