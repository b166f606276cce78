import type { AppConfig } from '../config/schema';
import { realPathLoose } from '../sandbox/real-path';
import { allowEntries, type AllowEntry } from './network-policy';

// What the user's configs/app.json lets a project's confined processes reach unasked: the user's
// own list (sandbox.network.allow), then the project's entry (projects.KEY.network_allow). These
// are the user's file: nothing in a project (its .mewbo/settings.json allowlist, a server's
// "network" in its .mcp.json) adds to them, so a repository cannot grant itself a destination.

/** The key of the configs/app.json `projects` entry for `root` (by path, links resolved). */
export function configProjectKey(config: AppConfig, root: string): string | undefined {
  const real = realPathLoose(root);
  for (const [key, project] of Object.entries(config.projects))
    if (project.path === root || realPathLoose(project.path) === real) return key;
  return undefined;
}

/** The allowlist entries in force for a root: the user's, then its project's. */
export function configAllowList(config: AppConfig, root: string): AllowEntry[] {
  const entries = allowEntries(
    config.sandbox.network.allow,
    'sandbox.network.allow (configs/app.json)',
  );
  const key = configProjectKey(config, root);
  if (key !== undefined)
    entries.push(
      ...allowEntries(
        config.projects[key]!.network_allow ?? [],
        `projects.${key}.network_allow (configs/app.json)`,
      ),
    );
  return entries;
}
