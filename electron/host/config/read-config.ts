import { configSchemas, type AppConfig } from './schema';
import type { ConfigProblem } from '../../../shared/protocol/config-problem';
import { isObject } from '../../../shared/is-object';

// The one reader of configs/app.json, for every entry point (the ConfigStore of the app and
// `mewbo serve`/`run`, loadConfigFile of the one-shot commands). An unknown key or a byte order
// mark is a warning (the key is ignored); a bad value for a known key is an error naming the key
// and what was expected. Text that is not JSON at all is an error. What an error does is the
// caller's policy (ConfigErrorPolicy).

export type { ConfigProblem };

/**
 * What an error in the file does. 'repair' (the app and `mewbo serve`, which list problems in
 * Settings): the key takes its default, or the whole file does when it is not JSON, so a typo never
 * locks the user out. 'refuse' (the one-shot commands, whose user sees no Settings): the caller
 * stops, since acting on a default the user did not write (a deny rule dropped) is worse than not
 * starting; the messages then say nothing about defaults.
 */
export type ConfigErrorPolicy = 'repair' | 'refuse';

export interface ReadConfig {
  config: AppConfig;
  problems: ConfigProblem[];
  /** The file's JSON object (null when it was not JSON): what an in-app change is merged into. */
  raw: Record<string, unknown> | null;
}

const BOM = '\uFEFF';
/** A file can hold at most this many mistakes before we stop peeling them off one by one. */
const MAX_REPAIRS = 200;

/** Parses a config file's text (undefined: the file does not exist). */
export function readConfigText(
  text: string | undefined,
  file: string,
  policy: ConfigErrorPolicy = 'repair',
): ReadConfig {
  const allDefaults = everySettingDefaults(policy);
  const problems: ConfigProblem[] = [];
  const appConfigSchema = configSchemas().app;
  if (text === undefined) return { config: appConfigSchema.parse({}), problems, raw: {} };
  if (text.startsWith(BOM)) {
    problems.push(
      problem('warning', file, '(file)', 'starts with a UTF-8 byte order mark; it is ignored'),
    );
    text = text.slice(BOM.length);
  }
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    problems.push(
      problem('error', file, '(file)', `not valid JSON (${(err as Error).message})${allDefaults}`),
    );
    return { config: appConfigSchema.parse({}), problems, raw: null };
  }
  if (!isObject(json)) {
    problems.push(problem('error', file, '(file)', `must hold a JSON object${allDefaults}`));
    return { config: appConfigSchema.parse({}), problems, raw: null };
  }
  const { config, problems: found } = validateConfig(json, file, policy);
  return { config, problems: [...problems, ...found], raw: json };
}

/** Validates a config object, repairing what is wrong on a copy and saying what was repaired. */
export function validateConfig(
  raw: Record<string, unknown>,
  file: string,
  policy: ConfigErrorPolicy = 'repair',
): { config: AppConfig; problems: ConfigProblem[] } {
  const appConfigSchema = configSchemas().app;
  const work = structuredClone(raw);
  const problems: ConfigProblem[] = [];
  const reported = new Set<string>();
  for (let round = 0; round < MAX_REPAIRS; round++) {
    const parsed = appConfigSchema.safeParse(work);
    if (parsed.success) return { config: parsed.data, problems };
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String);
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const full = [...path, key].join('.');
          problems.push(problem('warning', file, full, `unknown key "${full}" is ignored`));
          removeAt(work, [...path, key]);
        }
        continue;
      }
      const key = path.join('.') || '(root)';
      if (!reported.has(key)) {
        reported.add(key);
        const fallback = policy === 'repair' ? `; ${fallbackText(path)}` : '';
        problems.push(problem('error', file, key, `${issue.message}${fallback}`));
        removeAt(work, path);
      } else {
        // Its removal did not help (a required field of a record entry): drop the entry.
        removeAt(work, path.slice(0, -1));
      }
      // One repair at a time: a union's issues overlap, and the next parse re-reports the rest.
      break;
    }
  }
  // Unreachable for any file a person writes; still, never let a config stop the app.
  problems.push(
    problem('error', file, '(file)', `too many mistakes${everySettingDefaults(policy)}`),
  );
  return { config: appConfigSchema.parse({}), problems };
}

function everySettingDefaults(policy: ConfigErrorPolicy): string {
  return policy === 'repair' ? '; every setting takes its default' : '';
}

function fallbackText(path: string[]): string {
  const defaults: unknown = configSchemas().app.parse({});
  let value: unknown = defaults;
  for (const part of path) value = isObject(value) ? value[part] : undefined;
  if (value === undefined) return 'it is ignored';
  return `using the default (${JSON.stringify(value)})`;
}

function removeAt(target: Record<string, unknown>, path: string[]): void {
  if (!path.length) {
    for (const key of Object.keys(target)) delete target[key];
    return;
  }
  let node: unknown = target;
  // zod reports an issue at the first value that is not an object or array along its path, so
  // this walk only meets objects and arrays; the checks below are for safety alone.
  for (const part of path.slice(0, -1)) {
    // Stryker disable next-line ConditionalExpression: see above
    if (!isObject(node)) return;
    node = node[part];
  }
  if (Array.isArray(node)) node.splice(Number(path.at(-1)), 1);
  // Stryker disable next-line ConditionalExpression: see above
  else if (isObject(node)) delete node[path.at(-1)!];
}

function problem(
  level: ConfigProblem['level'],
  file: string,
  key: string,
  detail: string,
): ConfigProblem {
  return { level, file, key, message: `${file}: ${key === '(file)' ? '' : `${key}: `}${detail}` };
}
