/** Parses a model's streamed tool-argument JSON; an empty string is `{}` (a call without arguments). */
export function parseToolArgs(json: string): { args: unknown; argsError?: string } {
  if (!json.trim()) return { args: {} };
  try {
    return { args: JSON.parse(json) };
  } catch (err) {
    return {
      args: undefined,
      argsError: `the arguments are not valid JSON (${(err as Error).message}): ${json.slice(0, 300)}`,
    };
  }
}
