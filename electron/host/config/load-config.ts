import type { z } from 'zod';
import { readTextSync } from './checked-config';
import { ConfigError, refuseConfigErrors } from './config-error';
import { readConfigText } from './read-config';
import type { AppConfig } from './schema';

/** Formats a zod failure as "configs/app.json: agent.edit_tool: Invalid option ..." lines. */
export function describeIssues(file: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('\n');
}

/**
 * A config that code builds (tests, fixtures), read as the file would be. Any problem, an unknown
 * key too, is a ConfigError: in code it is a mistake, not a user's typo to forgive.
 */
export function parseConfig(raw: unknown, file = 'configs/app.json'): AppConfig {
  const read = readConfigText(JSON.stringify(raw ?? {}), file, 'refuse');
  const [first] = read.problems;
  if (first) throw new ConfigError(read.problems.map((p) => p.message).join('\n'), first.key);
  return read.config;
}

/**
 * configs/app.json for a one-shot command (`mewbo tool`, `mcp`, `sessions`): the app's one reader
 * under the 'refuse' policy. Warnings (an unknown key) are printed and the command goes on; an
 * error (a bad value, text that is not JSON) is a ConfigError naming the key. A missing file is
 * the all-defaults config.
 */
export function loadConfigFile(
  file: string,
  warn: (line: string) => void = (line) => console.warn(line),
): AppConfig {
  return checkConfigText(readTextSync(file), file, warn);
}

/** loadConfigFile of the text `text` of `file` (undefined: there is no file). */
export function checkConfigText(
  text: string | undefined,
  file: string,
  warn: (line: string) => void,
): AppConfig {
  const read = readConfigText(text, file, 'refuse');
  for (const p of read.problems) if (p.level === 'warning') warn(`warning: ${p.message}`);
  refuseConfigErrors(read.problems);
  return read.config;
}
