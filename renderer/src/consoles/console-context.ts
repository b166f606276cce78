import { createContext, useContext } from 'react';
import type { ConsoleRegistry } from './console-registry';

export const ConsoleRegistryContext = createContext<ConsoleRegistry | null>(null);

export function useConsoleRegistry(): ConsoleRegistry {
  const r = useContext(ConsoleRegistryContext);
  if (!r) throw new Error('useConsoleRegistry outside ConsoleRegistryContext');
  return r;
}
