import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_MAX_IMAGE_TOKENS,
  anthropicImageTokens,
  openAiImageTokens,
} from '../../../electron/host/models/image-limits';

// The per-image token formulas against the worked examples in each provider's own documentation
// (Anthropic "Vision": the cost table; OpenAI "Images and vision": the detail-high examples).

describe('anthropicImageTokens (width × height / 750 after the resize)', () => {
  it.each([
    [200, 200, 54],
    [1000, 1000, 1334],
    [1092, 1092, 1590],
  ])("Anthropic's table: %i×%i px is ~%i tokens", (w, h, tokens) => {
    expect(anthropicImageTokens(w, h)).toBe(tokens);
  });

  it('a long edge over 1568 px is scaled down first, and no image costs more than ~1,600', () => {
    // 3136×100 scales to 1568×50: 105 tokens, not 419.
    expect(anthropicImageTokens(3136, 100)).toBe(Math.ceil((1568 * 50) / 750));
    expect(anthropicImageTokens(4000, 3000)).toBe(ANTHROPIC_MAX_IMAGE_TOKENS);
  });

  it('a size the header did not give (or a zero one) counts at the most', () => {
    expect(anthropicImageTokens(null, null)).toBe(ANTHROPIC_MAX_IMAGE_TOKENS);
    expect(anthropicImageTokens(0, 500)).toBe(ANTHROPIC_MAX_IMAGE_TOKENS);
  });
});

describe('openAiImageTokens (85 + 170 per 512 px tile, detail high/auto)', () => {
  it.each([
    [1024, 1024, 765],
    [2048, 4096, 1105],
  ])("OpenAI's examples: %i×%i px is %i tokens", (w, h, tokens) => {
    expect(openAiImageTokens(w, h)).toBe(tokens);
  });

  it('a small image is one tile; an unknown size counts as the most tiles (2×4)', () => {
    expect(openAiImageTokens(100, 100)).toBe(255);
    expect(openAiImageTokens(null, 10)).toBe(85 + 170 * 8);
  });
});
