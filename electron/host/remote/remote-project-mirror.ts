import { rm } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../store/atomic-json';
import { POLICY_FILE_MAX_BYTES, POLICY_FILES_MAX } from './constants';
import {
  isPolicyFile,
  policyTextBytes,
  readPolicyFiles,
  type PolicyFile,
} from './project-policy-files';
import { RemoteAnswerError } from './remote-answer-error';
import { parseSshUrl, sshHostUrl } from './ssh-url';

// The app's copy of the policy files of each project on an SSH host (issue #29 part 3): fetched
// from the host before each use and kept under $MEWBO_HOME/state (no confined shell reaches it),
// so the app's own readers (instructions, rules and hooks, skills, commands, `.mcp.json`) and
// workspace trust read them as they read a local project's, and the trust digests are taken over
// the host's files. The host is not trusted to answer as the app's own remote part would (anyone
// with a shell there can replace it): an answer is checked whole before anything is written, and
// one naming a file outside the policy files' list (`../`, an absolute path, a NUL byte), a file
// over the size limit or more files than the limit is refused with nothing written. A copy of a
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
   * that cannot be asked leaves the last copy as it was (its tools cannot run either); one whose
   * answer is refused throws RemoteAnswerError and leaves it as it was too.
   */
  sync(url: string): Promise<string> {
    const folder = this.folderOf(url);
    const run = (this.syncs.get(folder) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const files = await this.opts.fetch(url).catch(() => null);
        if (files) await this.replace(folder, checkedAnswer(url, files));
        return folder;
      });
    this.syncs.set(folder, run);
    const forget = () => {
      if (this.syncs.get(folder) === run) this.syncs.delete(folder);
    };
    run.then(forget, forget);
    return run;
  }

  private async replace(folder: string, wanted: ReadonlyMap<string, string>): Promise<void> {
    const held = await readPolicyFiles(folder);
    for (const { path } of held)
      if (!wanted.has(path)) await rm(join(folder, path), { force: true });
    const same = new Map(held.map((f) => [f.path, f.text]));
    for (const [path, text] of wanted)
      if (same.get(path) !== text) await writeFileAtomic(join(folder, path), text, { mode: 0o600 });
  }
}

/** The host's answer as path -> text, if every file of it is one the app may copy; else throws. */
function checkedAnswer(url: string, files: readonly PolicyFile[]): Map<string, string> {
  const host = parseSshUrl(url).host;
  if (files.length > POLICY_FILES_MAX)
    throw new RemoteAnswerError(
      host,
      `${files.length} policy files for ${url}, over the limit of ${POLICY_FILES_MAX}`,
    );
  const wanted = new Map<string, string>();
  for (const { path, text } of files) {
    if (!isPolicyFile(path))
      throw new RemoteAnswerError(
        host,
        `a policy file named ${JSON.stringify(path)} for ${url}, which is none of a project's policy files (instructions, settings, .mcp.json, skills, commands, each a plain relative name)`,
      );
    if (wanted.has(path))
      throw new RemoteAnswerError(host, `the policy file ${path} of ${url} twice`);
    const bytes = policyTextBytes(text);
    if (bytes > POLICY_FILE_MAX_BYTES)
      throw new RemoteAnswerError(
        host,
        `the policy file ${path} of ${url} at ${bytes} bytes, over the limit of ${POLICY_FILE_MAX_BYTES}`,
      );
    wanted.set(path, text);
  }
  return wanted;
}
