import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unifiedDiff } from '../fs/unified-diff';
import { PROJECT_MCP_FILE } from '../mcp/project-config';
import { PROJECT_SETTINGS_FILES } from '../rules/settings-sources';
import { realPathLoose } from '../sandbox/real-path';
import { readJsonOr, writeJsonAtomic } from '../store/atomic-json';
import type { ContentChange } from '../../../shared/protocol/commands/trust';
import { TRUSTED_TEXT_MAX_BYTES } from './constants';

// Trust covers content, not a folder name: when the user trusts a project, the files of it the
// host obeys or runs (its settings: rules and hooks; its `.mcp.json`: servers) are recorded here,
// by digest and (up to a size) by text, so a change can be shown as a diff. Before the host uses
// one of them it asks `admits`: a file changed or added since (by the agent, a `git pull`, or the
// user's own editor; the host cannot tell them apart) is not used until the user trusts it again.
// The app's own writes of a trusted file ("Always allow ... in this project") are recorded as
// trusted. The record lives in $MEWBO_HOME/state (no confined process reaches it), read afresh
// at each question because `mewbo serve` and `mewbo run` share it; `mewbo run --trust` keeps its
// record in memory only, taken when the run starts.

/** The files of a project whose content the trust covers, relative to its root. */
export const TRUSTED_CONTENT_FILES: readonly string[] = [
  ...PROJECT_SETTINGS_FILES,
  PROJECT_MCP_FILE,
];

interface RecordedFile {
  sha256: string;
  /** The text as trusted, for the diff; absent past TRUSTED_TEXT_MAX_BYTES. */
  text?: string;
}

/** One trusted root's files (a file absent when trusted has no entry: nothing of it was trusted). */
type RootRecord = Record<string, RecordedFile>;

interface StoreFile {
  roots: Record<string, RootRecord>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function recorded(text: string): RecordedFile {
  return Buffer.byteLength(text) > TRUSTED_TEXT_MAX_BYTES
    ? { sha256: sha256(text) }
    : { sha256: sha256(text), text };
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

export class TrustedContent {
  /** `mewbo run --trust`: roots trusted as they were when the run started, never written. */
  private readonly runRecords = new Map<string, RootRecord>();
  /** Writes of the store file, one at a time (each reads it afresh first). */
  private tail: Promise<unknown> = Promise.resolve();

  /** `file`: $MEWBO_HOME/state/trusted-content.json. */
  constructor(private readonly file: string) {}

  /** Trusts what `roots` hold now, for this process only (`mewbo run --trust`). */
  async trustForRun(roots: readonly string[]): Promise<void> {
    for (const root of roots) this.runRecords.set(realPathLoose(root), await snapshot(root));
  }

  /** Records what `root` holds now as trusted (the user trusted it, seeing this content). */
  record(root: string): Promise<void> {
    return this.edit(async (roots) => {
      roots[realPathLoose(root)] = await snapshot(root);
    });
  }

  /** Forgets `root`'s record (its trust was withdrawn). */
  forget(root: string): Promise<void> {
    return this.edit(async (roots) => {
      delete roots[realPathLoose(root)];
    });
  }

  /**
   * Records `after` as the trusted text of `rel` when `before` (what the app read and edited) was
   * trusted: the app's own edit of a trusted file keeps it trusted, and never launders a change.
   */
  async recordEdit(root: string, rel: string, before: string | null, after: string): Promise<void> {
    if (before !== null && !(await this.admits(root, rel, before))) return;
    const real = realPathLoose(root);
    await this.edit(async (roots) => {
      const run = this.runRecords.get(real);
      if (run) run[rel] = recorded(after);
      if (roots[real]) roots[real] = { ...roots[real], [rel]: recorded(after) };
      else if (!run) roots[real] = { [rel]: recorded(after) };
    });
  }

  /** Whether `text`, read from `rel` of `root`, is what the user trusted there. */
  async admits(root: string, rel: string, text: string): Promise<boolean> {
    const entry = (await this.recordOf(realPathLoose(root)))?.[rel];
    return entry?.sha256 === sha256(text);
  }

  /** The files of `root` that changed or appeared since it was trusted, with their diffs. */
  async changes(root: string): Promise<ContentChange[]> {
    const record = (await this.recordOf(realPathLoose(root))) ?? {};
    const out: ContentChange[] = [];
    for (const rel of TRUSTED_CONTENT_FILES) {
      const now = await readText(join(root, rel));
      if (now === null) continue;
      const was = record[rel];
      if (was?.sha256 === sha256(now)) continue;
      const before = was ? (was.text ?? null) : '';
      out.push({
        file: rel,
        state: was ? 'changed' : 'added',
        diff:
          before === null
            ? `(the trusted version was over ${TRUSTED_TEXT_MAX_BYTES} bytes and is not kept: the file is shown whole)\n${unifiedDiff('', now, { path: rel, created: true }).text}`
            : unifiedDiff(before, now, { path: rel, created: !was }).text,
      });
    }
    return out;
  }

  private async recordOf(real: string): Promise<RootRecord | undefined> {
    return this.runRecords.get(real) ?? (await this.read()).roots[real];
  }

  private async read(): Promise<StoreFile> {
    // A damaged store trusts nothing: every project asks again, which is the safe side.
    const raw = (await readJsonOr(this.file, {}).catch(() => ({}))) as Partial<StoreFile> | null;
    const roots = raw?.roots;
    return { roots: roots && typeof roots === 'object' && !Array.isArray(roots) ? roots : {} };
  }

  private edit(mutate: (roots: Record<string, RootRecord>) => Promise<void>): Promise<void> {
    const run = this.tail
      .catch(() => undefined)
      .then(async () => {
        const store = await this.read();
        await mutate(store.roots);
        // 0600: the settings of a project may hold a server's token in its headers.
        await writeJsonAtomic(this.file, store, 0o600);
      });
    this.tail = run;
    return run;
  }
}

/** What `root` holds now of the trusted files. */
async function snapshot(root: string): Promise<RootRecord> {
  const out: RootRecord = {};
  for (const rel of TRUSTED_CONTENT_FILES) {
    const text = await readText(join(root, rel));
    if (text !== null) out[rel] = recorded(text);
  }
  return out;
}
