import { imageLabel } from '../../../shared/images/image-file';
import type { ImageLimits } from '../models/image-limits';
import type { ModelImage, ModelMessage } from '../models/types';
import { CHARS_PER_TOKEN } from './constants';

// Images in the agent's context: what they cost in tokens, and which of them a request carries.
// Every earlier image is sent again with each request, so a long session would pass a provider's
// caps (Anthropic: 100 images, 2000 px a side past 20, 32 MB) and fill the window with pictures.
// The request leaves out the OLDEST images, each replaced by a one-line note saying what it was,
// until it is under the caps and the images fit the room the budget leaves beside the text. The
// newest images always stay (all those of the newest message that has any). The session log keeps
// every image: this only shapes the request. read_file forgets that it returned an image left out
// (omittedCalls), so the re-read the note asks for gives the image, not "you already have it".
// Images are left out IMAGES_OMIT_STEP at a time, so the request's prefix (the provider's prompt
// cache) changes once per that many images, not per image.

/** Oldest images are left out in groups of this many (a group at most: the newest always stay). */
export const IMAGES_OMIT_STEP = 10;

/** Where an image sits in the context: its message, and its place among that message's images. */
export interface ImageRef {
  at: number;
  index: number;
  image: ModelImage;
}

/** The images of a list of messages, oldest first. */
export function imageRefs(messages: readonly ModelMessage[], offset = 0): ImageRef[] {
  const refs: ImageRef[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant')
      m.images?.forEach((image, index) => refs.push({ at: offset + i, index, image }));
  });
  return refs;
}

export interface ImagePlan {
  /** How many of the oldest images are left out. */
  omit: number;
  /** Estimated tokens of the images kept. */
  tokens: number;
}

/** How many of the oldest images to leave out so the rest fit the limits and `roomTokens`. */
export function planImages(
  refs: readonly ImageRef[],
  limits: ImageLimits,
  roomTokens: number,
): ImagePlan {
  const n = refs.length;
  if (!n) return { omit: 0, tokens: 0 };
  const newest = refs[n - 1]!.at;
  let floor = 0;
  while (floor < n && refs[n - 1 - floor]!.at === newest) floor++;
  // Tokens of the newest k images, for k = 0..kept.
  const cum = [0];
  let chars = 0;
  let large = false;
  for (let k = 1; k <= n; k++) {
    const { image } = refs[n - k]!;
    const side = Math.max(image.width ?? 0, image.height ?? 0);
    // A size the header did not give may be anything: it counts as large.
    const isLarge = !!limits.many && (!image.width || !image.height || side > limits.many.maxSide);
    const tokens = cum[k - 1]! + limits.tokens(image.width ?? null, image.height ?? null);
    if (
      k > floor &&
      (k > limits.maxImages ||
        (limits.many && k > limits.many.over && (large || isLarge)) ||
        chars + image.data.length > limits.maxBase64Chars ||
        tokens > roomTokens)
    )
      break;
    cum.push(tokens);
    chars += image.data.length;
    large ||= isLarge;
  }
  let omit = n - (cum.length - 1);
  if (omit > 0) omit = Math.min(n - floor, Math.ceil(omit / IMAGES_OMIT_STEP) * IMAGES_OMIT_STEP);
  return { omit, tokens: cum[n - omit]! };
}

/** The note an image is replaced by. */
export function omittedNote(image: ModelImage): string {
  const dims = image.width && image.height ? `, ${image.width}×${image.height}` : '';
  const what = `${imageLabel(image.mediaType)}${dims}`;
  return image.name
    ? `[image omitted: ${image.name} (${what}); older images are left out of the request, read the file again to see it]`
    : `[image omitted: an image the user attached (${what}); older images are left out of the request, ask the user to attach it again to see it]`;
}

/** One message with its first `count` images replaced by notes. */
function withoutImages(m: ModelMessage, count: number): ModelMessage {
  if (m.role === 'assistant' || !m.images) return m;
  const notes = m.images.slice(0, count).map(omittedNote).join('\n');
  const rest = m.images.slice(count);
  const { images: _images, ...base } = m;
  const kept = rest.length ? { images: rest } : {};
  return base.role === 'user'
    ? { ...base, ...kept, text: base.text ? `${base.text}\n\n${notes}` : notes }
    : { ...base, ...kept, content: `${base.content}\n${notes}` };
}

export interface ImageRequest {
  messages: ModelMessage[];
  /** Estimated tokens of the images kept and of the notes standing for the others. */
  tokens: number;
  omitted: number;
  /** The tool calls whose results had an image left out (read_file's dedup must forget them). */
  omittedCalls: string[];
}

/**
 * `messages` (a fresh array, changed in place) with the oldest `plan.omit` images replaced. `memo`
 * keeps each message's fully noted copy: a message whose images are all left out stays so.
 */
export function applyImagePlan(
  messages: ModelMessage[],
  refs: readonly ImageRef[],
  plan: ImagePlan,
  memo?: WeakMap<ModelMessage, ModelMessage>,
): ImageRequest {
  let noteChars = 0;
  const omittedCalls: string[] = [];
  let i = 0;
  while (i < plan.omit) {
    const at = refs[i]!.at;
    let count = 0;
    while (i < plan.omit && refs[i]!.at === at) {
      count++;
      i++;
    }
    const m = messages[at]!;
    if (m.role === 'tool') omittedCalls.push(m.callId);
    const all = m.role !== 'assistant' && m.images?.length === count;
    let noted = all ? memo?.get(m) : undefined;
    if (!noted) {
      noted = withoutImages(m, count);
      if (all) memo?.set(m, noted);
    }
    messages[at] = noted;
    for (let k = i - count; k < i; k++) noteChars += omittedNote(refs[k]!.image).length + 1;
  }
  return {
    messages,
    tokens: plan.tokens + Math.ceil(noteChars / CHARS_PER_TOKEN),
    omitted: plan.omit,
    omittedCalls,
  };
}

/** The whole computation from the messages alone (what an incremental context must equal). */
export function limitImages(
  messages: readonly ModelMessage[],
  limits: ImageLimits,
  roomTokens: number,
): ImageRequest {
  const refs = imageRefs(messages);
  return applyImagePlan(messages.slice(), refs, planImages(refs, limits, roomTokens));
}
