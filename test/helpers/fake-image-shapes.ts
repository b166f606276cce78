/* eslint-disable @typescript-eslint/no-explicit-any -- a fake server reads whatever JSON a client sends */
import { sniffImage } from '../../shared/images/image-file';

// Each provider's documented image shapes, as the fake servers check them (the real APIs answer
// 400 to the others): where an image may stand, how it is encoded, and that its bytes are an image
// of the type it claims.
// - Anthropic Messages: `{type: "image", source: {type: "base64", media_type, data}}` in a user
//   message or in a tool_result's content (text and image blocks only).
// - OpenAI Chat Completions: `{type: "image_url", image_url: {url}}` parts in user messages only;
//   a tool message's content is a string or text parts.
// - OpenAI Responses: `{type: "input_image", image_url}` in a message's content or in a
//   function_call_output's output list (input_text / input_image / input_file).
// - Ollama /api/chat: `images`, a list of bare base64 strings (no data: URL), on any message.

const MEDIA = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

function base64Error(data: unknown, mediaType: string | null, where: string): string | null {
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4)
    return `${where}: image data is not base64`;
  const info = sniffImage(Buffer.from(data, 'base64'));
  if (!info) return `${where}: image data is not a PNG, JPEG, GIF or WebP image`;
  if (mediaType && info.mediaType !== mediaType)
    return `${where}: image data is ${info.mediaType}, not the ${mediaType} it claims`;
  return null;
}

function dataUrlError(url: unknown, where: string): string | null {
  if (typeof url !== 'string') return `${where}: image_url must be a string`;
  if (/^https?:\/\//.test(url)) return null;
  const m = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(url);
  if (!m || !MEDIA.includes(m[1]!))
    return `${where}: image_url must be an http(s) or data:image URL`;
  return base64Error(m[2], m[1]!, where);
}

const blocks = (content: unknown): any[] => (Array.isArray(content) ? content : []);

/**
 * Anthropic's documented caps on one request (docs.claude.com/en/docs/vision): at most 100 images,
 * and with more than 20, none over 2000 px a side. The real API refuses the whole request.
 */
function anthropicImageCapError(body: any): string | null {
  const sizes: { where: string; side: number }[] = [];
  for (const [i, m] of (body.messages ?? []).entries())
    for (const [j, b] of blocks(m.content).entries()) {
      const inside = b.type === 'tool_result' ? blocks(b.content) : [b];
      for (const [k, c] of inside.entries())
        if (c.type === 'image') {
          const info = sniffImage(Buffer.from(String(c.source?.data ?? ''), 'base64'));
          sizes.push({
            where: `messages.${i}.content.${j}${b === c ? '' : `.content.${k}`}`,
            side: Math.max(info?.width ?? 0, info?.height ?? 0),
          });
        }
    }
  if (sizes.length > 100) return `Too many images in the request: ${sizes.length} > 100`;
  const big = sizes.length > 20 ? sizes.find((s) => s.side > 2000) : undefined;
  if (big)
    return `${big.where}: image dimensions exceed max allowed size for many-image requests: 2000 pixels`;
  return null;
}

export function anthropicImageError(body: any): string | null {
  const capped = anthropicImageCapError(body);
  if (capped) return capped;
  const image = (b: any, where: string) =>
    b.source?.type !== 'base64' || !MEDIA.includes(b.source?.media_type)
      ? `${where}: image.source must be {type: "base64", media_type: image/png|jpeg|gif|webp, data}`
      : base64Error(b.source.data, b.source.media_type, where);
  for (const [i, m] of (body.messages ?? []).entries())
    for (const [j, b] of blocks(m.content).entries()) {
      const where = `messages.${i}.content.${j}`;
      if (b.type === 'image') {
        if (m.role !== 'user') return `${where}: images are only allowed in user messages`;
        const bad = image(b, where);
        if (bad) return bad;
      }
      if (b.type === 'tool_result')
        for (const [k, c] of blocks(b.content).entries()) {
          if (c.type !== 'text' && c.type !== 'image')
            return `${where}.content.${k}: a tool_result holds text and image blocks only`;
          const bad = c.type === 'image' ? image(c, `${where}.content.${k}`) : null;
          if (bad) return bad;
        }
    }
  return null;
}

/**
 * OpenAI's documented caps on one request (developers.openai.com/api/docs/guides/images-vision):
 * up to 500 images and 50 MB of image bytes.
 */
function openAiImageCapError(urls: unknown[]): string | null {
  const datas = urls.filter((u): u is string => typeof u === 'string' && u.startsWith('data:'));
  if (urls.length > 500) return `Too many images in the request: ${urls.length} > 500`;
  const bytes = datas.reduce(
    (n, u) => n + Math.floor(((u.length - u.indexOf(',') - 1) * 3) / 4),
    0,
  );
  if (bytes > 50 * 1024 * 1024) return `The images in the request add up to more than 50 MB`;
  return null;
}

export function chatImageError(body: any): string | null {
  const capped = openAiImageCapError(
    (body.messages ?? []).flatMap((m: any) =>
      blocks(m.content)
        .filter((p) => p?.type === 'image_url')
        .map((p) => p.image_url?.url),
    ),
  );
  if (capped) return capped;
  for (const [i, m] of (body.messages ?? []).entries()) {
    if (typeof m.content === 'string' || m.content === null || m.content === undefined) continue;
    for (const [j, p] of blocks(m.content).entries()) {
      const where = `messages[${i}].content[${j}]`;
      if (p.type === 'text') continue;
      if (p.type !== 'image_url' || m.role !== 'user')
        return `${where}: ${m.role} messages take ${m.role === 'user' ? 'text and image_url' : 'text'} parts only`;
      const bad = dataUrlError(p.image_url?.url, where);
      if (bad) return bad;
    }
  }
  return null;
}

export function responsesImageError(body: any): string | null {
  const capped = openAiImageCapError(
    (body.input ?? []).flatMap((item: any) =>
      blocks(item.type === 'function_call_output' ? item.output : item.content)
        .filter((p) => p?.type === 'input_image')
        .map((p) => p.image_url),
    ),
  );
  if (capped) return capped;
  for (const [i, item] of (body.input ?? []).entries()) {
    if (item.type !== 'function_call_output' && !item.role) continue;
    const parts =
      item.type === 'function_call_output'
        ? typeof item.output === 'string'
          ? []
          : item.output
        : typeof item.content === 'string'
          ? []
          : item.content;
    if (!Array.isArray(parts)) return `input[${i}]: output must be a string or a list of parts`;
    for (const [j, p] of parts.entries()) {
      const where = `input[${i}].${item.type === 'function_call_output' ? 'output' : 'content'}[${j}]`;
      if (p.type === 'input_image') {
        const bad = dataUrlError(p.image_url, where);
        if (bad) return bad;
      } else if (!['input_text', 'input_file', 'output_text'].includes(p.type))
        return `${where}: unknown part type ${p.type}`;
    }
  }
  return null;
}

export function ollamaImageError(body: any): string | null {
  for (const [i, m] of (body.messages ?? []).entries()) {
    if (m.images === undefined) continue;
    if (!Array.isArray(m.images)) return `messages[${i}].images must be a list`;
    for (const [j, data] of m.images.entries()) {
      const bad = base64Error(data, null, `messages[${i}].images[${j}]`);
      if (bad) return bad;
    }
  }
  return null;
}
