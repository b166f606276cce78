import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from '../fs/cache-file';
import type { HomePaths } from './paths';
import type { AppConfig } from './schema';

// configs/app.json as `mewbo tool` and `mewbo mcp` read it, remembered once checked. The one
// reader (read-config.ts) checks the file against the config schema, which is classic zod: loading
// zod and building that schema was most of what `mewbo tool read_file` did before reading a byte
// (issue #26 part 4). So the last text the reader accepted is kept beside the CLI's code caches,
// with what the reader made of it (the config, its defaults filled in, and the warnings it
// printed), and a later start whose file holds that very text takes the record instead of
// checking again. Anything else is checked by the reader: another text (compared whole, not by
// size or time), a missing or unreadable record, a record of another build (its schema may
// differ: the build's id is a hash of the sources, build/build.mjs), and every run of code that
// was not built (tests from the sources have no build id, so they always check). A text the
// reader refuses is never recorded, so its error comes back at every start.
//
// The record is trusted as the code caches are: it lives in the user's own $MEWBO_HOME, which the
// agent's confined processes cannot write, and whoever can write there can write the config too.

declare const __MEWBO_BUILD_ID__: string | undefined;

/** This build's id (build/build.mjs defines it); null when running from the sources. */
export const BUILD_ID: string | null =
  typeof __MEWBO_BUILD_ID__ === 'string' ? __MEWBO_BUILD_ID__ : null;

const RECORD_NAME = 'checked-config.json';

interface CheckedRecord {
  build: string;
  file: string;
  /** The file's text; null when there was no file (every setting at its default). */
  text: string | null;
  config: AppConfig;
  warnings: string[];
}

/**
 * configs/app.json for a one-shot command: what `loadConfigFile` (load-config.ts) returns for it,
 * warnings printed through `warn` and errors thrown alike, without loading the schema when the
 * file is the one last accepted by this build. `build` is for tests of the record itself.
 */
export async function loadCheckedConfigFile(
  home: HomePaths,
  warn: (line: string) => void = (line) => console.warn(line),
  build: string | null = BUILD_ID,
): Promise<AppConfig> {
  const text = readTextSync(home.configFile);
  const recordFile = join(home.cacheDir, RECORD_NAME);
  const record = build === null ? undefined : readRecord(recordFile);
  if (
    record &&
    record.build === build &&
    record.file === home.configFile &&
    record.text === (text ?? null) &&
    Array.isArray(record.warnings)
  ) {
    for (const line of record.warnings) warn(line);
    return record.config;
  }
  const { checkConfigText } = await import('./load-config');
  const warnings: string[] = [];
  const config = checkConfigText(text, home.configFile, (line) => {
    warnings.push(line);
    warn(line);
  });
  if (build !== null)
    writeCacheFile(
      recordFile,
      JSON.stringify({
        build,
        file: home.configFile,
        text: text ?? null,
        config,
        warnings,
      } satisfies CheckedRecord),
    );
  return config;
}

/** A file's text, or undefined when it does not exist. */
export function readTextSync(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function readRecord(file: string): CheckedRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as CheckedRecord) : undefined;
  } catch {
    // None yet, or unreadable: the reader checks the file.
    return undefined;
  }
}
