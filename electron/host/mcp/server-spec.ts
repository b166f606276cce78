import type { McpServerConfig } from '../config/schema';

/** Where a server's config came from: the app (configs/app.json) or a project's `.mcp.json`. */
export type McpScope = 'app' | 'project';

export interface McpServerSpec {
  /** The name as configured; tools are namespaced by its sanitized form. */
  name: string;
  scope: McpScope;
  /** The project root a project server belongs to (its stdio cwd), else null. */
  root: string | null;
  config: McpServerConfig;
}

/** One identity per configured server: the same name in two projects is two servers. */
export function specKey(spec: Pick<McpServerSpec, 'scope' | 'root' | 'name'>): string {
  return spec.scope === 'app' ? `app:${spec.name}` : `project:${spec.root}:${spec.name}`;
}
