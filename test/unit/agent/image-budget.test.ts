import { describe, expect, it } from 'vitest';
import {
  IMAGES_OMIT_STEP,
  limitImages,
  omittedNote,
  planImages,
  imageRefs,
} from '../../../electron/host/agent/image-budget';
import { LoopState } from '../../../electron/host/agent/loop-state';
import {
  ANTHROPIC_IMAGE_LIMITS,
  DEFAULT_IMAGE_LIMITS,
  OPENAI_IMAGE_LIMITS,
  type ImageLimits,
} from '../../../electron/host/models/image-limits';
import type { ModelImage, ModelMessage } from '../../../electron/host/models/types';
import { makePng } from '../../helpers/png';
import { ArrayLog } from '../../helpers/session-log';

// Which images a request carries: the oldest are left out (a note each) past a provider's caps or
// the room the budget leaves them; the newest message's images always stay; the estimate counts
// the images kept by the provider's formula.

const img = (i: number, side = 10, chars = 8): ModelImage => ({
  mediaType: 'image/png',
  data: 'A'.repeat(chars - 1) + String.fromCharCode(65 + (i % 26)),
  name: `f${i}.png`,
  width: side,
  height: side,
});
/** One tool result per image, as read_file gives them. */
const results = (images: ModelImage[]): ModelMessage[] =>
  images.map((image, i) => ({
    role: 'tool',
    callId: `c${i}`,
    name: 'read_file',
    content: `read f${i}`,
    isError: false,
    images: [image],
  }));
const count = (ms: readonly ModelMessage[]) => imageRefs(ms).length;
const roomy = 1e9;

describe('planImages / limitImages', () => {
  it('under every cap nothing is left out, and the estimate is the sum of the formula', () => {
    const ms = results(Array.from({ length: 100 }, (_, i) => img(i, 1000)));
    const r = limitImages(ms, ANTHROPIC_IMAGE_LIMITS, roomy);
    expect(r.omitted).toBe(0);
    expect(r.messages).toEqual(ms);
    expect(r.tokens).toBe(100 * 1334);
  });

  it('past 100 images (Anthropic) the oldest go a group at a time; the rest are untouched', () => {
    const ms = results(Array.from({ length: 101 }, (_, i) => img(i)));
    const r = limitImages(ms, ANTHROPIC_IMAGE_LIMITS, roomy);
    expect(r.omitted).toBe(IMAGES_OMIT_STEP);
    expect(count(r.messages)).toBe(101 - IMAGES_OMIT_STEP);
    expect(r.messages.slice(IMAGES_OMIT_STEP)).toEqual(ms.slice(IMAGES_OMIT_STEP));
    expect(r.messages[0]).toEqual({
      role: 'tool',
      callId: 'c0',
      name: 'read_file',
      content: `read f0\n${omittedNote(img(0))}`,
      isError: false,
    });
    expect(omittedNote(img(0))).toMatch(
      /^\[image omitted: f0\.png \(PNG, 10×10\);.*read the file again/,
    );
    // The same group stays out until the next one must go (the prompt cache keeps its prefix).
    const more = results(Array.from({ length: 110 }, (_, i) => img(i)));
    expect(limitImages(more, ANTHROPIC_IMAGE_LIMITS, roomy).omitted).toBe(10);
    expect(
      limitImages([...more, ...results([img(110)])], ANTHROPIC_IMAGE_LIMITS, roomy).omitted,
    ).toBe(20);
  });

  it('past 20 images none may be over 2000 px a side: an old large one goes with all before it', () => {
    const images = Array.from({ length: 30 }, (_, i) => img(i, i === 5 ? 2001 : 100));
    expect(planImages(imageRefs(results(images)), ANTHROPIC_IMAGE_LIMITS, roomy).omit).toBe(10);
    // A large one among the newest 20: the request keeps 20 at most.
    images[25] = img(25, 2500);
    expect(planImages(imageRefs(results(images)), ANTHROPIC_IMAGE_LIMITS, roomy).omit).toBe(10);
    // One more image: 11 must go, so a second group of 10.
    images.push(img(30));
    expect(planImages(imageRefs(results(images)), ANTHROPIC_IMAGE_LIMITS, roomy).omit).toBe(20);
  });

  it("OpenAI's caps are its own: 500 images pass, the 501st sends a group out", () => {
    const ms = results(Array.from({ length: 500 }, (_, i) => img(i, 1024)));
    const r = limitImages(ms, OPENAI_IMAGE_LIMITS, roomy);
    expect(r.omitted).toBe(0);
    expect(r.tokens).toBe(500 * 765);
    expect(limitImages([...ms, ...results([img(500)])], OPENAI_IMAGE_LIMITS, roomy).omitted).toBe(
      IMAGES_OMIT_STEP,
    );
    // Ollama documents no formula: each image counts at the constant.
    expect(limitImages(ms.slice(0, 3), DEFAULT_IMAGE_LIMITS, roomy).tokens).toBe(3 * 1600);
  });

  it('the request size: images past the base64 cap go, oldest first', () => {
    const limits: ImageLimits = { ...ANTHROPIC_IMAGE_LIMITS, maxBase64Chars: 1000 };
    const ms = results(Array.from({ length: 15 }, (_, i) => img(i, 10, 100)));
    expect(limitImages(ms, limits, roomy).omitted).toBe(10);
  });

  it('the budget: the oldest go until the rest fit; the newest message keeps its images whatever', () => {
    const ms = results(Array.from({ length: 25 }, (_, i) => img(i, 1000)));
    // Room for 12 images of 1,334 tokens: 13 must go, rounded to a group of 10: 20.
    const r = limitImages(ms, ANTHROPIC_IMAGE_LIMITS, 12 * 1334 + 5);
    expect(r.omitted).toBe(20);
    expect(count(r.messages)).toBe(5);
    // No room at all: the newest message still has its images (here a user's three).
    const user: ModelMessage = { role: 'user', text: 'look', images: [img(90), img(91), img(92)] };
    const none = limitImages([...ms, user], ANTHROPIC_IMAGE_LIMITS, -5);
    expect(none.omitted).toBe(25);
    expect(none.messages.at(-1)).toEqual(user);
    expect(none.tokens).toBeGreaterThanOrEqual(3 * 54);
  });

  it('a user message partly left out keeps its newest images and says what the others were', () => {
    const user: ModelMessage = { role: 'user', text: 'see', images: [img(0), img(1), img(2)] };
    const later = results(Array.from({ length: 99 }, (_, i) => img(10 + i)));
    const r = limitImages([user, ...later], ANTHROPIC_IMAGE_LIMITS, roomy);
    expect(r.omitted).toBe(10);
    expect(r.messages[0]!.role === 'user' && r.messages[0]!.images).toBeUndefined();
    const pasted = (i: number): ModelImage => ({ ...img(i), name: undefined });
    const partial: ModelMessage = { role: 'user', text: '', images: [0, 1, 2].map(pasted) };
    const many = results(Array.from({ length: 105 }, (_, i) => img(10 + i)));
    const m = limitImages(
      [...many.slice(0, 8), partial, ...many.slice(8)],
      ANTHROPIC_IMAGE_LIMITS,
      roomy,
    );
    // 108 images: 10 go, the 8 results and the first 2 of the message.
    const note = omittedNote(pasted(0));
    expect(note).toMatch(
      /^\[image omitted: an image the user attached \(PNG, 10×10\);.*ask the user/,
    );
    expect(m.messages[8]).toEqual({ role: 'user', text: `${note}\n${note}`, images: [pasted(2)] });
    expect(m.messages[7]).toMatchObject({ content: `read f7\n${omittedNote(img(17))}` });
  });
});

describe('the estimate counts images', () => {
  it('grows by the provider formula for an image, read from its header', () => {
    const log = new ArrayLog();
    const ctx = new LoopState(log).context('root');
    log.append({ type: 'user_message', message_id: 'm1', text: 'hello' });
    const before = ctx.request(ANTHROPIC_IMAGE_LIMITS, roomy).tokens;
    log.append({
      type: 'user_message',
      message_id: 'm2',
      text: 'and this',
      images: [{ media_type: 'image/png', data: makePng(1000, 1000).toString('base64') }],
    });
    const after = ctx.request(ANTHROPIC_IMAGE_LIMITS, roomy);
    expect(after.tokens - before).toBe(1334);
    expect(after.messages.at(-1)).toMatchObject({ images: [{ width: 1000, height: 1000 }] });
  });
});
