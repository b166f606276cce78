import { rm } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../store/atomic-json';
import { isPolicyFile, readPolicyFiles, type PolicyFile } from './project-policy-files';
import { parseSshUrl, sshHostUrl } from './ssh-url';

// The app's copy of the policy files of each project on an SSH host (issue #29 part 3): fetched
// from the host before each use and kept under $MEWBO_HOME/state (no confined shell reaches it),
// so the app's own readers (instructions, rules and hooks, skills, commands, `.mcp.json`) and
// workspace trust read them as they read a local project's, and the trust digests are taken over
// the host's files. Nothing the host names outside the policy files' list is written; a copy of a
// project sits at the project's path under its host's folder, so trusting a remote folder covers
// the projects inside it as it does for local folders.

export interface RemoteProjectMirrorOptions {
  /** $MEWBO_HOME/state/remote-projects. */
  dir: string;
  /** The policy files of the project at `url` as its host holds them now. */
  fetch(url: string): Promise<PolicyFile[]>;
}

/** The folder under `dir` that holds the copy of the project at `url`. */
export function remoteProjectFolder(dir: string, url: string): string {
  return join(dir, encodeURIComponent(sshHostUrl(url)), parseSshUrl(url).path);
}

/** The URL of the project whose copy `folder` is (under `dir`), or null for any other folder. */
export function remoteProjectUrl(dir: string, folder: string): string | null {
  const rel = relative(dir, folder);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  const [host, ...path] = rel.split(sep);
  try {
    const url = `${decodeURIComponent(host!)}/${path.join('/')}`;
    return remoteProjectFolder(dir, url) === folder ? url : null;
  } catch {
    return null;
  }
}

export class RemoteProjectMirror {
  /** Per copy: its last sync, so two sessions on one project write it one after the other. */
  private readonly syncs = new Map<string, Promise<unknown>>();

  constructor(private readonly opts: RemoteProjectMirrorOptions) {}

  /** The local folder that holds the copy of the project at `url` (made by the first sync). */
  folderOf(url: string): string {
    return remoteProjectFolder(this.opts.dir, url);
  }

  /**
   * Makes the copy of `url`'s policy files match the host's now, and returns its folder. A host
   * that cannot be asked leaves the last copy as it was (its tools cannot run either).
   */
  sync(url: string): Promise<string> {
    const folder = this.folderOf(url);
    const run = (this.syncs.get(folder) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const files = await this.opts.fetch(url).catch(() => null);
        if (files) await this.replace(folder, files);
        return folder;
      });
    this.syncs.set(folder, run);
    void run.finally(() => {
      if (this.syncs.get(folder) === run) this.syncs.delete(folder);
    });
    return run;
  }

  private async replace(folder: string, files: readonly PolicyFile[]): Promise<void> {
    const wanted = new Map(files.filter((f) => isPolicyFile(f.path)).map((f) => [f.path, f.text]));
    const held = await readPolicyFiles(folder);
    for (const { path } of held)
      if (!wanted.has(path)) await rm(join(folder, path), { force: true });
    const same = new Map(held.map((f) => [f.path, f.text]));
    for (const [path, text] of wanted)
      if (same.get(path) !== text) await writeFileAtomic(join(folder, path), text, { mode: 0o600 });
  }
}
