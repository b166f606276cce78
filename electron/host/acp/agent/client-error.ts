// What an editor's error answer to one of our client requests says (`mewbo acp`), for the tool
// result that reports it.

/** A client's error in words: its message, and the detail an SDK puts in `data` for a thrown Error. */
export function clientErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const data = (err as { data?: unknown }).data;
  const details =
    data && typeof data === 'object' && typeof (data as { details?: unknown }).details === 'string'
      ? (data as { details: string }).details
      : null;
  return details ? `${message} (${details})` : message;
}
