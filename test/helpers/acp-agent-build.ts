import { fileURLToPath } from 'node:url';
import { bundleOnce } from './bundle-once';

const source = fileURLToPath(new URL('../fixtures/acp-scripted-agent.ts', import.meta.url));

/**
 * Bundles the scripted ACP agent (the SDK included) into one .mjs under the temp dir: a confined
 * agent may not read the app's own install (harness_self_deny).
 */
export function buildScriptedAgent(): Promise<string> {
  return bundleOnce('mewbo-acp-scripted-agent', [source]);
}
