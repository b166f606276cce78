import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its initial size while a long-lived process starts, and lets it
 * grow again afterwards (returned function). Start-up allocations are mostly module code and
 * service objects that all survive, so a nursery grown for them buys nothing, and an idle host
 * kept its 8 MiB grown semi-spaces (issue #18: idle RSS 1.5x a bare server). Later work grows it
 * as before. V8 reads the growth factor each time it would grow the space; 2 is its default.
 * Call it before the long-lived process imports its modules: loading the host's module graph is
 * most of start-up's allocation, and held only after it, the space had already grown.
 */
export function holdYoungGenerationDuringStartup(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => setFlagsFromString('--semi-space-growth-factor=2');
}
