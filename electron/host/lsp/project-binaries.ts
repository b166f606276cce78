import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AgentConfig } from '../config/schema';
import { isInside } from '../fs/safe-path';
import { realPathLoose } from '../sandbox/real-path';
import type { TrustItem } from '../../../shared/protocol/commands/trust';
import { moduleDir, nodeBinDirs, resolveExecutable } from './resolve-command';
import { buildServerSpecs } from './server-specs';

// Workspace trust for language servers: nothing under an untrusted project is executed. The
// project's node_modules/.bin is not searched, a command that still resolves inside the project
// (a PATH entry or a relative command pointing there) is refused, and typescript-language-server,
// which would otherwise load the workspace's own typescript/lib/tsserver.js, is handed the app's.

/** Whether `executable` (after symlinks) lies inside `projectRoot`. */
export function isProjectLocal(executable: string, projectRoot: string): boolean {
  return isInside(realPathLoose(projectRoot), realPathLoose(executable));
}

/** The app's own tsserver.js, or null when the app has no typescript package. */
export function appTsserver(fromDir: string = moduleDir()): string | null {
  try {
    return createRequire(join(fromDir, 'noop.js')).resolve('typescript/lib/tsserver.js');
  } catch {
    return null;
  }
}

/**
 * initializationOptions that keep a server from loading project code on its own, for a server of
 * an untrusted project; undefined when the server needs none. Null when it cannot be kept from it.
 */
export function untrustedInitOptions(
  server: string,
  tsserver: string | null = appTsserver(),
): Record<string, unknown> | undefined | null {
  if (server !== 'typescript-language-server') return undefined;
  return tsserver ? { tsserver: { path: tsserver } } : null;
}

/** The trust prompt's lines: language servers the project ships in its node_modules/.bin. */
export function projectServerPreview(projectRoot: string, lsp: AgentConfig['lsp']): TrustItem[] {
  if (!lsp.enabled) return [];
  const bins = nodeBinDirs(projectRoot, projectRoot);
  const items: TrustItem[] = [];
  for (const spec of buildServerSpecs(lsp).specs) {
    const program = spec.command[0]!;
    const found = resolveExecutable(program, projectRoot, { before: bins, after: [], path: '' });
    if (found && isProjectLocal(found, projectRoot))
      items.push({
        kind: 'language_server',
        name: spec.name,
        detail: [found, ...spec.command.slice(1)].join(' '),
      });
  }
  if (existsSync(join(projectRoot, 'node_modules', 'typescript', 'lib', 'tsserver.js')))
    items.push({
      kind: 'language_server',
      name: 'tsserver',
      detail: join(projectRoot, 'node_modules', 'typescript', 'lib', 'tsserver.js'),
    });
  return items;
}
