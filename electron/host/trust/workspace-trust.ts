import { isInside } from '../fs/safe-path';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter, type Event } from '../lifecycle/emitter';
import { realPathLoose } from '../sandbox/real-path';
import { isSshUrl } from '../remote/ssh-url';
import { lazyRequire } from '../system/lazy-require';
import type { TrustedProject } from '../../../shared/protocol/commands/trust';
import type { Event as ConfigEvent } from '../lifecycle/emitter';
import { editTrustedList, setProjectFlag, type TrustConfigSource } from './trust-config';
import type { TrustedContent } from './trusted-content';
import type { ContentChange } from '../../../shared/protocol/commands/trust';

// Loaded when a policy file's content is first judged: `mewbo tool read_file` builds this
// service and judges none, and node:crypto is 17 modules to load (issue #26 part 4).
const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

// Workspace trust: is this project root trusted? A project is untrusted until the user says so
// (as in VS Code and Claude Code). Until then its `.mcp.json` servers do not start and nothing
// under it is executed by the host (language servers from node_modules/.bin); other owners (rules,
// hooks, skills) ask here too. Sources, all of them the user's own:
// - `projects.<key>.trusted: true` in configs/app.json (a configured project without it is not);
// - `trusted_projects` in configs/app.json, which the UI writes;
// - `mewbo run --trust`: this process only, never written.
// Trusting a directory trusts what is inside it, except a configured project inside it that
// does not say `trusted: true` itself: the nearer word wins.
// Trust covers the content the user saw (trusted-content.ts): a settings file or `.mcp.json`
// changed or added since is not used until the project is trusted again.

export interface WorkspaceTrustOptions {
  /** The owner of configs/app.json (ConfigStore). */
  config: TrustConfigSource;
  /** ConfigStore.onDidChange: a hand edit ('file') announces the list again (ours already do). */
  onConfigChange?: ConfigEvent<{ source: 'app' | 'file' }>;
  /** Roots trusted for this process only (`mewbo run --trust`). */
  runTrusted?: string[];
  /**
   * The record of trusted content; `trust` and `revoke` keep it. Without one no project file's
   * content is admitted (a standalone tool run reads no settings).
   */
  content?: TrustedContent;
  /**
   * The local folder whose files stand for a project on an SSH host (an `ssh://` entry): the
   * app's copy of its policy files (remote/remote-project-mirror.ts). Absent: no such entry trusts.
   */
  remoteFolder?(url: string): string;
  /** Brings the copy of a remote project up to date before its content is recorded as trusted. */
  refreshRemote?(url: string): Promise<unknown>;
}

interface Rule {
  path: string;
  /** As Settings lists it: the path, or a remote project's URL. */
  shown: string;
  trusted: boolean;
  source: TrustedProject['source'];
  project: string | null;
}

export class WorkspaceTrust implements Disposable {
  private readonly runTrusted: string[];
  private readonly changed = new Emitter<TrustedProject[]>();
  private readonly configSub: Disposable | undefined;
  /** Changed files already announced (root, file, text digest): each is announced once. */
  private readonly announced = new Set<string>();
  /** The trusted list changed (the `trust` topic; MCP re-reads projects whose trust moved). */
  readonly onDidChange: Event<TrustedProject[]> = this.changed.event;

  constructor(private readonly opts: WorkspaceTrustOptions) {
    this.runTrusted = (opts.runTrusted ?? []).map((p) => this.real(p));
    this.configSub = opts.onConfigChange?.((c) => {
      if (c.source === 'file') this.changed.fire(this.list());
    });
  }

  /** Where trust looks for `path`: the real folder, or for an `ssh://` URL the copy of its files. */
  private real(path: string): string {
    if (!isSshUrl(path)) return realPathLoose(path);
    // Without a copy to stand for it, a remote entry names a folder that never exists.
    return this.opts.remoteFolder ? realPathLoose(this.opts.remoteFolder(path)) : `\0${path}`;
  }

  /** Read from the live config at each question, so a hand edit applies at once. */
  private rules(): Rule[] {
    const { projects, trusted_projects } = this.opts.config.config;
    const rules: Rule[] = [];
    for (const [key, p] of Object.entries(projects))
      rules.push({
        path: realPathLoose(p.path),
        shown: realPathLoose(p.path),
        trusted: p.trusted === true,
        source: 'config',
        project: key,
      });
    for (const path of trusted_projects)
      rules.push({
        path: this.real(path),
        shown: isSshUrl(path) ? path : this.real(path),
        trusted: true,
        source: 'list',
        project: null,
      });
    return rules;
  }

  private configuredKey(real: string): string | undefined {
    const { projects } = this.opts.config.config;
    return Object.keys(projects).find((k) => realPathLoose(projects[k]!.path) === real);
  }

  /** Whether the host may start what `root` asks for. Null (no project) is never trusted. */
  isTrusted(root: string | null): boolean {
    if (root === null) return false;
    const real = this.real(root);
    if (this.runTrusted.some((p) => isInside(p, real))) return true;
    let best: Rule | null = null;
    for (const rule of this.rules()) {
      if (!isInside(rule.path, real)) continue;
      // Deepest wins; at the same depth a trusting entry wins (the UI trusted a configured path).
      if (!best || rule.path.length > best.path.length) best = rule;
      else if (rule.path.length === best.path.length && rule.trusted) best = rule;
    }
    return best?.trusted ?? false;
  }

  /**
   * Whether `text`, just read from the policy file `rel` of `root`, may be used: the project is
   * trusted and this is the content it was trusted with. A change seen for the first time is
   * announced on onDidChange, so the trust prompt shows it before anything asks again.
   */
  async trustsContent(root: string, rel: string, text: string): Promise<boolean> {
    if (!this.isTrusted(root)) return false;
    if (await this.opts.content?.admits(root, rel, text)) return true;
    const key = JSON.stringify([
      realPathLoose(root),
      rel,
      // Stryker disable next-line StringLiteral: any encoding of the digest keeps keys apart (a Buffer's JSON too)
      crypto().createHash('sha256').update(text).digest('hex'),
    ]);
    if (!this.announced.has(key)) {
      this.announced.add(key);
      this.changed.fire(this.list());
    }
    return false;
  }

  /** The folder whose files `path` stands for: itself, or a remote project's copy made fresh. */
  async filesOf(path: string): Promise<string> {
    if (!isSshUrl(path)) return path;
    await this.opts.refreshRemote?.(path);
    return this.real(path);
  }

  /** The files of a trusted `root` changed since it was trusted (none when it is not trusted). */
  async contentChanges(root: string): Promise<ContentChange[]> {
    if (!this.isTrusted(root) || !this.opts.content) return [];
    return this.opts.content.changes(await this.filesOf(root));
  }

  /** Keeps the app's own edit of a trusted file trusted (see TrustedContent.recordEdit). */
  async recordEdit(root: string, rel: string, before: string | null, after: string): Promise<void> {
    if (this.isTrusted(root)) await this.opts.content?.recordEdit(root, rel, before, after);
  }

  /** Every trusting entry, for Settings. */
  list(): TrustedProject[] {
    const out: TrustedProject[] = this.rules()
      .filter((r) => r.trusted)
      .map(({ shown, source, project }) => ({ path: shown, source, project }));
    for (const path of this.runTrusted) out.push({ path, source: 'run', project: null });
    return out;
  }

  /**
   * Trusts `path` with what it holds now: a configured project gets `trusted: true`, any other
   * directory is listed. Trusting a trusted project again accepts its changed files.
   */
  async trust(path: string): Promise<TrustedProject[]> {
    const real = this.real(path);
    const key = this.configuredKey(real);
    await this.opts.content?.record(await this.filesOf(path));
    return this.write((raw) => {
      if (key) setProjectFlag(raw, key, true);
      else editTrustedList(raw, isSshUrl(path) ? path : real, true, (p) => this.real(p) === real);
    });
  }

  /** Withdraws every entry that names `path` itself (an ancestor's entry is its own). */
  async revoke(path: string): Promise<TrustedProject[]> {
    const real = this.real(path);
    const key = this.configuredKey(real);
    await this.opts.content?.forget(real);
    return this.write((raw) => {
      if (key) setProjectFlag(raw, key, undefined);
      editTrustedList(raw, real, false, (p) => this.real(p) === real);
    });
  }

  private async write(mutate: (raw: Record<string, unknown>) => void): Promise<TrustedProject[]> {
    await this.opts.config.update(mutate);
    const now = this.list();
    this.changed.fire(now);
    return now;
  }

  dispose(): void {
    this.configSub?.dispose();
    this.changed.dispose();
  }
}
