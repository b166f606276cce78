import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../fixtures/acp-scripted-agent.ts', import.meta.url));

/**
 * Bundles the scripted ACP agent (the SDK included) into one .mjs under the temp dir, named by a
 * hash of its source so parallel test files share one build: a confined agent may not read the
 * app's own install (harness_self_deny), and Node 20 cannot run TypeScript.
 */
export async function buildScriptedAgent(): Promise<string> {
  const hash = createHash('sha1').update(readFileSync(source)).digest('hex').slice(0, 12);
  const outfile = join(tmpdir(), `mewbo-acp-scripted-agent-${hash}.mjs`);
  if (existsSync(outfile)) return outfile;
  const tmp = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [source],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  renameSync(tmp, outfile);
  return outfile;
}
