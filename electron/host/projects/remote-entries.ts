import { basename } from 'node:path';
import type { RemoteProjectConfig } from '../config/schema';
import type {
  HostKeyRefusal,
  ProjectEntry,
  RemoteConnectionState,
} from '../../../shared/protocol/commands/projects';
import { formatSshUrl, parseSshUrl, sshHostUrl } from '../remote/ssh-url';
import type { RegistryState } from './registry-state';
import { repoSlug, type FolderGitState } from './git';

// The registry's entries for projects on SSH hosts (issue #29 part 1). Nothing here touches a
// disk or runs git: the folder is on another machine, and whether it is reachable is the link
// state the remote part (electron/host/remote/) reports, not something a scan could find out;
// its branch, origin and files not committed are what the host's git said (remote-git-watch.ts).

/** The name a remote project gets when none is given: its folder's, or the host's for `/`. */
export function remoteDefaultName(url: string): string {
  const target = parseSshUrl(url);
  return basename(target.path) || target.host;
}

/** A host's link as the remote part last reported it (every project on the host shares it). */
export interface RemoteLink {
  state: RemoteConnectionState;
  hostKey: HostKeyRefusal | null;
}

function remoteEntry(
  key: string,
  kind: 'configured' | 'remote',
  record: { url: string; name: string; description: string },
  state: RegistryState,
  /** By host, as sshHostUrl names it. */
  links: ReadonlyMap<string, RemoteLink>,
  /** By project URL: its git state as the host's git last read it (absent: not read yet). */
  gits: ReadonlyMap<string, FolderGitState | null>,
): ProjectEntry {
  const target = parseSshUrl(record.url);
  const link = links.get(sshHostUrl(record.url)) ?? { state: 'disconnected', hostKey: null };
  const git = gits.get(formatSshUrl(target)) ?? null;
  return {
    key,
    name: state.names[key] ?? record.name,
    kind,
    description: record.description,
    path: null,
    available: link.state === 'connected',
    repo: repoSlug(git?.origin),
    branch: git?.branch ?? null,
    parent: null,
    last_opened_at: state.opened[key] ?? null,
    remote: {
      url: formatSshUrl(target),
      host: target.host,
      user: target.user ?? null,
      port: target.port ?? null,
      path: target.path,
      state: link.state,
      host_key: link.hostKey,
      changed_files: git?.changed_files ?? null,
    },
  };
}

/**
 * Remote projects from configs/app.json `remote_projects` (kind configured, keyed by their name
 * there, which the config schema keeps apart from `projects`) and added ones (kind remote,
 * `remote:<id>`).
 */
export function remoteEntries(
  configured: Record<string, RemoteProjectConfig>,
  state: RegistryState,
  links: ReadonlyMap<string, RemoteLink>,
  gits: ReadonlyMap<string, FolderGitState | null>,
): ProjectEntry[] {
  return [
    ...Object.entries(configured).map(([key, c]) =>
      remoteEntry(
        key,
        'configured',
        { url: c.url, name: c.name ?? key, description: c.description },
        state,
        links,
        gits,
      ),
    ),
    ...state.remotes.map((r) => remoteEntry(`remote:${r.id}`, 'remote', r, state, links, gits)),
  ];
}
