import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOnce, REQUIRE_BANNER } from './bundle-once';

// From a bundle (bench/run.mjs puts benchmarks under node_modules/.cache) import.meta.url is not
// this folder; benchmarks run from the repository root, so fall back to it.
const nextToMe = fileURLToPath(new URL('.', import.meta.url));
const here = existsSync(join(nextToMe, 'mcp-test-server.ts'))
  ? nextToMe
  : join(process.cwd(), 'test', 'helpers');
const sources = ['mcp-test-server.ts', 'mcp-tool-catalog.ts'].map((f) => join(here, f));

/** Bundles mcp-test-server.ts (SDK and zod included) into one .mjs under the temp dir. */
export function buildMcpTestServer(): Promise<string> {
  return bundleOnce('mewbo-mcp-test-server', sources, REQUIRE_BANNER);
}

/** The published reference server, run from node_modules in stdio mode. */
export function serverEverythingEntry(): string {
  return join(
    here,
    '..',
    '..',
    'node_modules',
    '@modelcontextprotocol',
    'server-everything',
    'dist',
    'index.js',
  );
}
