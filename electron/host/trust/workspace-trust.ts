import type { AppConfig } from '../config/schema';
import type { ConfigStore } from '../config/config-store';
import { isInside } from '../fs/safe-path';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter, type Event } from '../lifecycle/emitter';
import { realPathLoose } from '../sandbox/real-path';
import type { TrustedProject } from '../../../shared/protocol/commands/trust';
import { trustKeysOf, writeTrustKeys, type TrustKeys } from './trust-config';

// Workspace trust: is this project root trusted? A project is untrusted until the user says so
// (as in VS Code and Claude Code). Until then its `.mcp.json` servers do not start and nothing
// under it is executed by the host (language servers from node_modules/.bin); other owners (rules,
// hooks, skills) ask here too. Sources, all of them the user's own:
// - `projects.<key>.trusted: true` in configs/app.json (a configured project without it is not);
// - `trusted_projects` in configs/app.json, which the UI writes;
// - `mewbo run --trust`: this process only, never written.
// Trusting a directory trusts what is inside it, except a configured project inside it that
// does not say `trusted: true` itself: the nearer word wins.

export interface WorkspaceTrustOptions {
  /** The owner of configs/app.json: writes go through it, hand edits are picked up from it. */
  store?: ConfigStore;
  config: AppConfig;
  /** Roots trusted for this process only (`mewbo run --trust`). */
  runTrusted?: string[];
}

interface Rule {
  path: string;
  trusted: boolean;
  source: TrustedProject['source'];
  project: string | null;
}

export class WorkspaceTrust implements Disposable {
  private keys: TrustKeys;
  private projectPaths: Record<string, string>;
  private readonly runTrusted: string[];
  private readonly storeSub: Disposable | undefined;
  private readonly changed = new Emitter<TrustedProject[]>();
  /** The trusted list changed (the `trust` topic; MCP re-reads projects whose trust moved). */
  readonly onDidChange: Event<TrustedProject[]> = this.changed.event;

  constructor(private readonly opts: WorkspaceTrustOptions) {
    this.keys = trustKeysOf(opts.config);
    this.projectPaths = pathsOf(opts.config);
    this.runTrusted = (opts.runTrusted ?? []).map(realPathLoose);
    // A hand edit of the trust keys counts as the user's word too.
    this.storeSub = opts.store?.onDidChange((change) => {
      if (change.source !== 'file') return;
      this.keys = trustKeysOf(change.config);
      this.projectPaths = pathsOf(change.config);
      this.changed.fire(this.list());
    });
  }

  private rules(): Rule[] {
    const rules: Rule[] = [];
    for (const [key, path] of Object.entries(this.projectPaths))
      rules.push({ path, trusted: this.keys.flags[key] === true, source: 'config', project: key });
    for (const path of this.keys.list)
      rules.push({ path: realPathLoose(path), trusted: true, source: 'list', project: null });
    return rules;
  }

  /** Whether the host may start what `root` asks for. Null (no project) is never trusted. */
  isTrusted(root: string | null): boolean {
    if (root === null) return false;
    const real = realPathLoose(root);
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

  /** Every trusting entry, for Settings. */
  list(): TrustedProject[] {
    const out: TrustedProject[] = this.rules()
      .filter((r) => r.trusted)
      .map(({ path, source, project }) => ({ path, source, project }));
    for (const path of this.runTrusted) out.push({ path, source: 'run', project: null });
    return out;
  }

  /** Trusts `path`: a configured project gets `trusted: true`, any other directory is listed. */
  trust(path: string): Promise<TrustedProject[]> {
    const real = realPathLoose(path);
    return this.write((keys) => {
      const key = Object.keys(this.projectPaths).find((k) => this.projectPaths[k] === real);
      if (key) keys.flags[key] = true;
      else if (!keys.list.some((p) => realPathLoose(p) === real)) keys.list.push(real);
    });
  }

  /** Withdraws every entry that names `path` itself (an ancestor's entry is its own). */
  revoke(path: string): Promise<TrustedProject[]> {
    const real = realPathLoose(path);
    return this.write((keys) => {
      for (const [key, p] of Object.entries(this.projectPaths))
        if (p === real && keys.flags[key] !== undefined) keys.flags[key] = undefined;
      keys.list = keys.list.filter((p) => realPathLoose(p) !== real);
    });
  }

  private async write(mutate: (keys: TrustKeys) => void): Promise<TrustedProject[]> {
    if (!this.opts.store) throw new Error('workspace trust is read-only here');
    this.keys = await writeTrustKeys(this.opts.store, mutate);
    const now = this.list();
    this.changed.fire(now);
    return now;
  }

  dispose(): void {
    this.storeSub?.dispose();
    this.changed.dispose();
  }
}

function pathsOf(config: AppConfig): Record<string, string> {
  return Object.fromEntries(
    Object.entries(config.projects).map(([k, p]) => [k, realPathLoose(p.path)]),
  );
}
