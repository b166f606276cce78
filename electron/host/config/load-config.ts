import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { appConfigSchema, type AppConfig } from './schema';

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Formats a zod failure as "configs/app.json: agent.edit_tool: Invalid option ..." lines. */
export function describeIssues(file: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('\n');
}

export function parseConfig(raw: unknown, file = 'configs/app.json'): AppConfig {
  const parsed = appConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    // Stryker disable next-line OptionalChaining: a failed parse has at least one issue
    throw new ConfigError(describeIssues(file, parsed.error), first?.path.join('.'));
  }
  return parsed.data;
}

/** Reads and validates a config file; a missing file is the all-defaults config. */
export function loadConfigFile(file: string): AppConfig {
  let text: string;
  try {
    // Stryker disable next-line StringLiteral: JSON.parse reads a Buffer as UTF-8 text all the same
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return parseConfig({}, file);
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  return parseConfig(json, file);
}
