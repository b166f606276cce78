// What each provider documents about images in one request: how many tokens an image of a given
// size costs, and the caps a request must stay under (the API refuses the whole request past
// them). The agent's context (agent/image-budget.ts) counts images with `tokens` and replaces the
// oldest ones with a note to stay under the caps.
//
// Sources (each read for this file):
// - Anthropic, "Vision" (docs.claude.com/en/docs/vision, platform.claude.com/docs/en/build-with-claude/vision):
//   up to 100 images per API request (the 200k-context models; later pages allow 600 for the
//   others, so 100 is the safe figure); an image over 8000x8000 px is refused, and with more than
//   20 images in one request the limit is 2000x2000 px; 32 MB per request on the standard
//   endpoints. An image whose long edge is over 1568 px, or that is over ~1,600 tokens, is first
//   scaled down, keeping its aspect ratio; then tokens = width px * height px / 750.
// - OpenAI, "Images and vision" (developers.openai.com/api/docs/guides/images-vision): up to 500
//   images and 50 MB of image bytes per request, 20 MB per image. Tile-based cost (GPT-4o, 4.1,
//   GPT-5, the o-series), for detail "high" (and "auto", which may pick it; the app sends auto):
//   scale to fit a 2048x2048 square, then so the shortest side is 768 px; 170 tokens for each
//   512 px tile, plus 85.
// - Ollama documents neither a per-image cost nor a cap: it depends on the model's vision encoder.
//   An image there is counted at a constant, the most any formula above charges for one image
//   (Anthropic's ~1,600), so a local model's window (Ollama silently cuts a prompt past num_ctx)
//   is never under-counted for the common encoders (LLaVA 576, Gemma 3 256 tokens an image).

export interface ImageLimits {
  /** Images one request may carry. */
  maxImages: number;
  /** With more than `over` images in a request, each must fit `maxSide` px a side (Anthropic). */
  many?: { over: number; maxSide: number };
  /** Base64 characters of all the images of one request together. */
  maxBase64Chars: number;
  /** Tokens an image of this size costs; a size the header did not give counts at the most. */
  tokens(width: number | null, height: number | null): number;
}

const MB = 1024 * 1024;
/** Room left for the text of a request under a provider's size limit. */
const TEXT_ROOM = 4 * MB;

const known = (w: number | null, h: number | null): [number, number] | null =>
  w && h && w > 0 && h > 0 ? [w, h] : null;

/** Anthropic: the size after its resize, over 750 pixels a token. */
export const ANTHROPIC_MAX_IMAGE_TOKENS = 1_600;
export function anthropicImageTokens(width: number | null, height: number | null): number {
  const size = known(width, height);
  if (!size) return ANTHROPIC_MAX_IMAGE_TOKENS;
  let [w, h] = size;
  const longEdge = Math.max(w, h);
  if (longEdge > 1568) [w, h] = [(w * 1568) / longEdge, (h * 1568) / longEdge];
  return Math.min(ANTHROPIC_MAX_IMAGE_TOKENS, Math.max(1, Math.ceil((w * h) / 750)));
}

/** OpenAI, detail high/auto: 85 + 170 per 512 px tile after its two resizes. */
export function openAiImageTokens(width: number | null, height: number | null): number {
  const size = known(width, height);
  // The most tiles an image can take: 768 x 2048 px is 2 x 4 of them.
  if (!size) return 85 + 170 * 8;
  let [w, h] = size;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  [w, h] = [w * fit, h * fit];
  const short = Math.min(1, 768 / Math.min(w, h));
  [w, h] = [w * short, h * short];
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

export const ANTHROPIC_IMAGE_LIMITS: ImageLimits = {
  maxImages: 100,
  many: { over: 20, maxSide: 2000 },
  maxBase64Chars: 32 * MB - TEXT_ROOM,
  tokens: anthropicImageTokens,
};

export const OPENAI_IMAGE_LIMITS: ImageLimits = {
  maxImages: 500,
  // 50 MB of image bytes: their base64 is 4/3 of that.
  maxBase64Chars: Math.floor((50 * MB * 4) / 3),
  tokens: openAiImageTokens,
};

/** Ollama (and any provider that says nothing): Anthropic's caps, a constant cost per image. */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxImages: 100,
  maxBase64Chars: 32 * MB - TEXT_ROOM,
  tokens: () => ANTHROPIC_MAX_IMAGE_TOKENS,
};
