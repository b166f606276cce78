import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import PQueue from 'p-queue';
import { Emitter, type Event } from '../lifecycle/emitter';
import type { Disposable } from '../lifecycle/disposable';
import { readSettingsFile, replaceSettingsFile, settingsRoot } from '../fs/settings-file';
import { ConfigError, refuseConfigErrors } from './config-error';
import { readTextSync } from './checked-config';
import { isObject } from '../../../shared/is-object';
import {
  readConfigText,
  validateConfig,
  type ConfigErrorPolicy,
  type ConfigProblem,
} from './read-config';
import type { AppConfig } from './schema';
import { CONFIG_WATCH_SETTLE_MS, CONFIG_WRITE_RETRIES } from './constants';

// The one owner of configs/app.json. Every in-app change (Settings, the model settings, the
// pairing switch) is a read-modify-write of the file's own JSON through one queue, so two changes
// at once both land; it is read and written through verified descriptors (fs/settings-file.ts),
// so a link at app.json is refused rather than followed. The file is watched: a hand edit
// while the app runs is loaded into the live config, announced (onDidChange) and shown in
// Settings; because each change re-reads the file first, it never writes over a hand-edited key.

export interface ConfigChange {
  /** 'app': an in-app change; 'file': the file was edited by hand. */
  source: 'app' | 'file';
  config: AppConfig;
  problems: ConfigProblem[];
}

export interface ConfigStoreOptions {
  file: string;
  /** Where problems are printed; default stderr. */
  warn?: (line: string) => void;
  /** Watch the file for hand edits (default true). */
  watch?: boolean;
  /**
   * 'repair' (default, the app and `mewbo serve`): a bad value takes its default and is listed.
   * 'refuse' (`mewbo run`): open throws a ConfigError naming the key, and a hand edit with an
   * error while it runs keeps the settings in effect.
   */
  errors?: ConfigErrorPolicy;
}

export class ConfigStore implements Disposable {
  /** The live config: updated in place, so every holder of it (or of a section) sees changes. */
  readonly config: AppConfig;
  private currentProblems: ConfigProblem[];
  /** The file's text as last read or written by us; a different text on disk is a hand edit. */
  private lastText: string | undefined;
  private readonly queue = new PQueue({ concurrency: 1 });
  private readonly changed = new Emitter<ConfigChange>();
  private readonly printed = new Set<string>();
  private watcher: FSWatcher | null = null;
  private settle: NodeJS.Timeout | null = null;
  private disposed = false;

  readonly onDidChange: Event<ConfigChange> = this.changed.event;

  private constructor(private readonly opts: ConfigStoreOptions) {
    this.lastText = readTextSync(opts.file);
    const read = readConfigText(this.lastText, opts.file, this.policy);
    if (this.policy === 'refuse') {
      this.print(read.problems.filter((p) => p.level === 'warning'));
      refuseConfigErrors(read.problems);
    }
    this.config = read.config;
    this.currentProblems = read.problems;
    this.print(read.problems);
  }

  private get policy(): ConfigErrorPolicy {
    return this.opts.errors ?? 'repair';
  }

  /** Reads the file (a missing one is all defaults; a broken one is defaults plus errors). */
  static open(opts: ConfigStoreOptions): ConfigStore {
    const store = new ConfigStore(opts);
    if (opts.watch !== false) store.startWatching();
    return store;
  }

  get file(): string {
    return this.opts.file;
  }

  /** What is wrong in the file right now (warnings and errors), for Settings. */
  get problems(): readonly ConfigProblem[] {
    return this.currentProblems;
  }

  /**
   * Applies `mutate` to the file's JSON as it is on disk now, validates, writes atomically, and
   * updates the live config. Refuses (ConfigError) a change that adds an error, and any change
   * while the file is not valid JSON (the user's text is never replaced).
   */
  update(mutate: (raw: Record<string, unknown>) => void): Promise<AppConfig> {
    return this.exclusive(async () => {
      for (let attempt = 0; ; attempt++) {
        // Through verified descriptors: a link planted at app.json is refused, never followed.
        const root = await settingsRoot(dirname(this.opts.file), true);
        const text = await readSettingsFile(root, this.opts.file);
        const read = readConfigText(text, this.opts.file);
        if (read.raw === null) {
          throw new ConfigError(
            `${read.problems.find((p) => p.level === 'error')!.message}. Fix the file by hand; the app will not write over it.`,
          );
        }
        // Stryker disable next-line MethodExpression,ConditionalExpression: a warning's key is an unknown key or (file), never where a new error can appear
        const known = new Set(read.problems.filter((p) => p.level === 'error').map((p) => p.key));
        const raw = structuredClone(read.raw);
        mutate(raw);
        const next = validateConfig(raw, this.opts.file);
        const added = next.problems.filter((p) => p.level === 'error' && !known.has(p.key));
        if (added.length)
          throw new ConfigError(added.map((p) => p.message).join('\n'), added[0]!.key);
        // A hand edit that landed while we merged: merge again onto it rather than replace it.
        if (
          (await readSettingsFile(root, this.opts.file)) !== text &&
          attempt < CONFIG_WRITE_RETRIES
        )
          continue;
        const out = `${JSON.stringify(raw, null, 2)}\n`;
        await replaceSettingsFile(root, this.opts.file, out);
        this.lastText = out;
        this.apply(next.config, next.problems, 'app');
        return this.config;
      }
    });
  }

  /** Loads the file if it changed on disk since we last read or wrote it; true if it had. */
  reload(): Promise<boolean> {
    return this.exclusive(async () => {
      const text = await readText(this.opts.file);
      if (text === this.lastText) return false;
      this.lastText = text;
      const read = readConfigText(text, this.opts.file, this.policy);
      // Half-saved or broken JSON keeps the settings in effect, as does any error under the
      // 'refuse' policy; the error says why.
      const keep =
        read.raw === null ||
        (this.policy === 'refuse' && read.problems.some((p) => p.level === 'error'));
      this.apply(keep ? this.config : read.config, read.problems, 'file');
      return true;
    });
  }

  /** Runs `fn` in the config queue: the other files under configs/ (secrets) share it. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.add(fn);
  }

  private apply(next: AppConfig, problems: ConfigProblem[], source: ConfigChange['source']): void {
    // Stryker disable next-line ConditionalExpression: assigning the config onto itself changes nothing
    if (next !== this.config) assignInPlace(this.config as Record<string, unknown>, next);
    this.currentProblems = problems;
    this.print(problems);
    this.changed.fire({ source, config: this.config, problems });
  }

  private print(problems: ConfigProblem[]): void {
    const warn = this.opts.warn ?? ((line: string) => console.warn(line));
    for (const p of problems) {
      if (this.printed.has(p.message)) continue;
      this.printed.add(p.message);
      warn(`${p.level}: ${p.message}`);
    }
  }

  private startWatching(): void {
    const dir = dirname(this.opts.file);
    const name = basename(this.opts.file);
    mkdirSync(dir, { recursive: true });
    try {
      // The directory, not the file: an atomic save (ours or an editor's) replaces the inode.
      this.watcher = watch(dir, { persistent: false }, (_event, changed) => {
        // Stryker disable next-line ConditionalExpression: reloading an unchanged file announces nothing (the text is compared)
        if (changed && changed !== name) return;
        this.scheduleReload();
      });
      this.watcher.on('error', () => this.stopWatching());
    } catch (err) {
      this.print([
        {
          level: 'warning',
          file: this.opts.file,
          key: '(file)',
          message: `${this.opts.file}: cannot watch for edits (${(err as Error).message}); restart to load hand edits`,
        },
      ]);
    }
  }

  private scheduleReload(): void {
    // Stryker disable next-line ConditionalExpression: dispose closes the watcher first, so no event arrives after it
    if (this.disposed) return;
    // Stryker disable next-line ConditionalExpression: clearTimeout(null) is a no-op; an extra reload of the same text announces nothing
    if (this.settle) clearTimeout(this.settle);
    // An editor saves in steps (truncate, write, rename); read once they have settled.
    this.settle = setTimeout(() => {
      this.settle = null;
      void this.reload().catch((err: unknown) =>
        console.warn(`${this.opts.file}: reload failed: ${(err as Error).message}`),
      );
    }, CONFIG_WATCH_SETTLE_MS);
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.settle) clearTimeout(this.settle);
    this.settle = null;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.stopWatching();
    await this.queue.onIdle();
    this.changed.dispose();
  }
}

/** Makes `target` equal to `source`, keeping the identity of every nested object both have. */
export function assignInPlace(target: Record<string, unknown>, source: object): void {
  const src = source as Record<string, unknown>;
  for (const key of Object.keys(target)) if (!(key in src)) delete target[key];
  for (const [key, value] of Object.entries(src)) {
    const current = target[key];
    if (isObject(current) && isObject(value)) assignInPlace(current, value);
    else target[key] = value;
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
