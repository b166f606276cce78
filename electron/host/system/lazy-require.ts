import { createRequire } from 'node:module';

/**
 * A CommonJS package loaded at its first use instead of at start-up (issue #18: a process loads
 * only what it uses). Works from the ESM bundles (dist/cli.js: resolved beside the chunk), from
 * the CommonJS one (Electron main) and from the sources under test.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const url = (import.meta as { url?: string }).url;
      loaded = (url ? createRequire(url) : require)(id) as T;
    }
    return loaded;
  };
}
