import { ModelError } from '../models/model-error';
import { HostError } from '../rpc/host-error';
import {
  COMMIT_MESSAGE_MAX_TOKENS,
  COMMIT_MESSAGE_TIMEOUT_MS,
  COMMIT_PROMPT_DIFF_CHARS,
  FALLBACK_MESSAGE_FILES,
} from './constants';

// The commit message the Review proposes for a session's work not committed yet: one short
// request to the session's own model with the diff, its answer cleaned of the wrapping models
// add (fences, quotes, a "Commit message:" label). When the model cannot answer (none set, an
// error, a timeout, an empty answer) a plain message naming the files stands in, and the reason
// goes with it so the user knows it is not the model's.

export interface ProposedMessage {
  message: string;
  source: 'model' | 'fallback';
  /** Why the model's proposal is not there (fallback only). */
  reason: string | null;
}

export type AskModel = (
  req: { system: string; prompt: string; maxTokens: number },
  signal: AbortSignal,
) => Promise<string>;

const SYSTEM = [
  'You write git commit messages.',
  'Answer with the commit message only: a subject line of at most 72 characters in the imperative',
  'mood ("Read the port from PORT"), then, only when the change needs it, a blank line and a short',
  'body saying why. No quotes, no code fences, no preamble.',
].join(' ');

/** A message naming the changed files, for when the model gives none. */
export function fallbackMessage(files: readonly string[]): string {
  if (files.length === 1) return `Update ${files[0]}`;
  const named = files.slice(0, FALLBACK_MESSAGE_FILES).join(', ');
  const more = files.length - FALLBACK_MESSAGE_FILES;
  return `Update ${files.length} files: ${named}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The model's answer as a commit message: wrapping removed, empty when nothing is left. */
export function cleanMessage(answer: string): string {
  let text = answer.trim();
  const fenced = /^(`{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(text);
  if (fenced) text = fenced[2]!.trim();
  text = text.replace(/^(proposed )?commit message:\s*/i, '');
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
  if (quoted) text = quoted[2]!.trim();
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function promptFor(patch: string, files: readonly string[]): string {
  const cut = patch.length > COMMIT_PROMPT_DIFF_CHARS;
  return [
    `Write the commit message for this change to ${files.length} file${files.length === 1 ? '' : 's'} (${files.join(', ')}).`,
    '',
    cut ? `The diff, cut after its first ${COMMIT_PROMPT_DIFF_CHARS} characters:` : 'The diff:',
    patch.slice(0, COMMIT_PROMPT_DIFF_CHARS),
  ].join('\n');
}

/** Why the model gave no message, in words for the Review. */
function reasonOf(err: unknown): string {
  if (err instanceof HostError || err instanceof ModelError) return err.message;
  if (err instanceof Error && err.name === 'TimeoutError')
    return `the model did not answer within ${COMMIT_MESSAGE_TIMEOUT_MS / 1000} s`;
  return err instanceof Error ? err.message : String(err);
}

/** Proposes a message for `patch` (the work not committed, touching `files`). Never throws. */
export async function proposeCommitMessage(
  patch: string,
  files: readonly string[],
  ask: AskModel,
): Promise<ProposedMessage> {
  const fallback = (reason: string): ProposedMessage => ({
    message: fallbackMessage(files),
    source: 'fallback',
    reason,
  });
  try {
    const answer = await ask(
      { system: SYSTEM, prompt: promptFor(patch, files), maxTokens: COMMIT_MESSAGE_MAX_TOKENS },
      AbortSignal.timeout(COMMIT_MESSAGE_TIMEOUT_MS),
    );
    const message = cleanMessage(answer);
    return message
      ? { message, source: 'model', reason: null }
      : fallback('the model answered with nothing');
  } catch (err) {
    return fallback(reasonOf(err));
  }
}
