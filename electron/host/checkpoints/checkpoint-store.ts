import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../store/atomic-json';
import {
  INCREMENTAL_ADD_MAX,
  INDEX_LOCK_RETRIES,
  INDEX_LOCK_RETRY_MS,
  RAW_ATTRIBUTES,
} from './constants';
import { CheckpointError, ShadowGit, splitNul } from './shadow-git';

// Snapshots of a project's working tree (tracked and untracked files that its .gitignore does not
// ignore) in a shadow git repository under $MEWBO_HOME/checkpoints, one per project root, shared
// by every session on that root. The shadow index keeps git's stat cache, so a snapshot hashes only
// what changed since the last one, and an unchanged tree yields the same tree id (nothing added).
// Files over the size limit are listed, not stored: they never enter the index.

export interface LargeFile {
  path: string;
  size: number;
}

export interface Snapshot {
  commit: string;
  tree: string;
  large: LargeFile[];
}

/** One path that differs between two snapshots. */
export interface TreeChange {
  path: string;
  /** A: only in `to`; D: only in `from`; M: content or type differs. */
  status: 'A' | 'D' | 'M';
  /** The blob and mode in `to` (absent for D). */
  to?: { mode: string; sha: string };
}

interface StoreState {
  root: string;
  large: string[];
  last?: { tree: string; commit: string };
}

export interface CheckpointStoreOptions {
  /** $MEWBO_HOME/checkpoints */
  dir: string;
  maxFileBytes: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ProjectCheckpoints {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly root: string,
    private readonly storeDir: string,
    private readonly git: ShadowGit,
    private readonly maxFileBytes: number,
  ) {}

  private get stateFile() {
    return join(this.storeDir, 'state.json');
  }

  /** Runs `fn` after every earlier operation on this store (one index, one writer). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async ensure(): Promise<StoreState> {
    try {
      return JSON.parse(await readFile(this.stateFile, 'utf8')) as StoreState;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new CheckpointError('corrupt_store', `checkpoint store ${this.storeDir}: ${err}`);
    }
    // Built aside and renamed into place, so a crash never leaves a half-made store in use.
    const temp = `${this.storeDir}.init-${process.pid}`;
    await rm(temp, { recursive: true, force: true });
    await mkdir(temp, { recursive: true, mode: 0o700 });
    const init = new ShadowGit({ ...this.git.opts, gitDir: join(temp, 'git') });
    await init.run(['init', '--quiet', '--bare', join(temp, 'git')], { bare: true });
    await mkdir(join(temp, 'git', 'info'), { recursive: true });
    await writeFile(join(temp, 'git', 'info', 'attributes'), RAW_ATTRIBUTES);
    const state: StoreState = { root: this.root, large: [] };
    await writeFile(join(temp, 'state.json'), JSON.stringify(state));
    await rm(this.storeDir, { recursive: true, force: true });
    await rename(temp, this.storeDir);
    return state;
  }

  /**
   * Snapshots the working tree now. `maxFileBytes`: the size limit of the caller's config when it
   * is not this store's (the app's, for a store its remote part keeps).
   */
  snapshot(label: string, maxFileBytes = this.maxFileBytes): Promise<Snapshot> {
    return this.serial(async () => {
      const state = await this.ensure();
      const candidates = splitNul(
        await this.git.text([
          '-c',
          'core.untrackedCache=true',
          'ls-files',
          '-z',
          '--others',
          '--modified',
          '--deleted',
          '--exclude-standard',
        ]),
      );
      const changed = [...new Set(candidates)];
      const large: LargeFile[] = [];
      for (const path of new Set([...changed, ...state.large])) {
        const st = await lstat(join(this.root, path)).catch(() => null);
        if (st?.isFile() && st.size > maxFileBytes) large.push({ path, size: st.size });
      }
      large.sort((a, b) => (a.path < b.path ? -1 : 1));
      if (large.length) {
        await this.withIndexLock(() =>
          this.git.run(['update-index', '-z', '--force-remove', '--stdin'], {
            input: large.map((f) => f.path + '\0').join(''),
          }),
        );
      }
      // After the first snapshot only what the stat pass above found changed is added (one walk
      // of the tree, not two); the first adds everything. Large files are kept out by exclude
      // pathspecs: a project's .gitignore cannot re-include them.
      const largeSet = new Set(large.map((f) => f.path));
      const incremental = state.last !== undefined && changed.length <= INCREMENTAL_ADD_MAX;
      const pathspecs = incremental
        ? changed.filter((p) => !largeSet.has(p)).map((p) => `:(literal)${p}`)
        : ['.', ...large.map((f) => `:(exclude,literal)${f.path}`)];
      if (pathspecs.length)
        await this.withIndexLock(() =>
          this.git.run(
            [
              '-c',
              'core.untrackedCache=true',
              'add',
              '-A',
              '--pathspec-from-file=-',
              '--pathspec-file-nul',
            ],
            { input: pathspecs.map((p) => p + '\0').join('') },
          ),
        );
      const tree = (await this.git.text(['write-tree'])).trim();
      let commit = state.last?.tree === tree ? state.last.commit : '';
      if (!commit) {
        commit = (await this.git.text(['commit-tree', tree, '-m', label])).trim();
        // A ref per snapshot keeps its objects from ever being pruned.
        await this.git.run(['update-ref', `refs/mewbo/${commit}`, commit]);
      }
      await writeJsonAtomic(this.stateFile, {
        root: this.root,
        large: large.map((f) => f.path),
        last: { tree, commit },
      } satisfies StoreState);
      return { commit, tree, large };
    });
  }

  private async withIndexLock<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const locked = err instanceof CheckpointError && /index\.lock/.test(err.message);
        if (!locked || attempt >= INDEX_LOCK_RETRIES) throw err;
        await sleep(INDEX_LOCK_RETRY_MS);
      }
    }
  }

  /** Checks that a snapshot and every object of its tree are in the store. */
  verify(commit: string): Promise<void> {
    return this.serial(async () => {
      await this.ensure();
      const ok = await this.git
        .run(['cat-file', '-e', `${commit}^{tree}`])
        .then(() => true)
        .catch(() => false);
      if (!ok)
        throw new CheckpointError(
          'missing_objects',
          `checkpoint ${commit.slice(0, 12)} is missing from the store at ${this.storeDir}`,
        );
      // Reading every object proves the tree complete before anything is restored from it.
      await this.git
        .run(['rev-list', '--objects', '--quiet', '--missing=error', commit])
        .catch((err: Error) => {
          throw new CheckpointError(
            'missing_objects',
            `checkpoint ${commit.slice(0, 12)} is incomplete in ${this.storeDir}: ${err.message}`,
          );
        });
    });
  }

  /** What differs between two snapshots, from `from`'s point of view to `to`'s. */
  diff(from: string, to: string): Promise<TreeChange[]> {
    return this.serial(async () => {
      const out = splitNul(
        await this.git.text(['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]),
      );
      const changes: TreeChange[] = [];
      for (let i = 0; i + 1 < out.length; i += 2) {
        const m = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])/.exec(out[i]!);
        if (!m) throw new CheckpointError('corrupt_store', `unexpected diff-tree line ${out[i]}`);
        const status = m[5] === 'A' || m[5] === 'D' ? m[5] : 'M';
        changes.push({
          path: out[i + 1]!,
          status,
          ...(status === 'D' ? {} : { to: { mode: m[2]!, sha: m[4]! } }),
        });
      }
      return changes;
    });
  }

  /** The contents of blobs, after checking every one exists (nothing is read until all do). */
  readBlobs(shas: string[]): Promise<Map<string, Buffer>> {
    return this.serial(async () => {
      const unique = [...new Set(shas)];
      const blobs = new Map<string, Buffer>();
      if (!unique.length) return blobs;
      const check = (
        await this.git.text(['cat-file', '--batch-check'], {
          input: unique.join('\n') + '\n',
        })
      )
        .split('\n')
        .filter(Boolean);
      const missing = check.filter((l) => l.endsWith(' missing')).map((l) => l.split(' ')[0]);
      if (missing.length)
        throw new CheckpointError(
          'missing_objects',
          `the checkpoint store at ${this.storeDir} is missing ${missing.length} object(s) (${missing
            .slice(0, 3)
            .join(', ')}); nothing was restored`,
        );
      const out = await this.git.run(['cat-file', '--batch'], {
        input: unique.join('\n') + '\n',
      });
      let pos = 0;
      while (pos < out.length) {
        const nl = out.indexOf(0x0a, pos);
        const [sha, , size] = out.subarray(pos, nl).toString('utf8').split(' ');
        const start = nl + 1;
        const end = start + Number(size);
        blobs.set(sha!, out.subarray(start, end));
        pos = end + 1;
      }
      return blobs;
    });
  }
}

/** Every project's checkpoint store, one per real root path. */
export class CheckpointStore {
  private readonly projects = new Map<string, ProjectCheckpoints>();

  constructor(private readonly opts: CheckpointStoreOptions) {}

  storeDirOf(root: string): string {
    const key = createHash('sha256').update(root).digest('hex').slice(0, 24);
    return join(this.opts.dir, key);
  }

  forRoot(root: string): ProjectCheckpoints {
    let p = this.projects.get(root);
    if (!p) {
      const storeDir = this.storeDirOf(root);
      p = new ProjectCheckpoints(
        root,
        storeDir,
        new ShadowGit({
          gitDir: join(storeDir, 'git'),
          workTree: root,
        }),
        this.opts.maxFileBytes,
      );
      this.projects.set(root, p);
    }
    return p;
  }
}
