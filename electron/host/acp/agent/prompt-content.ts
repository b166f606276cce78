import { relative, isAbsolute, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RequestError, type ContentBlock } from '@agentclientprotocol/sdk';
import {
  IMAGE_MAX_BASE64_CHARS,
  imageWire,
  type FileMention,
  type ImageWire,
} from '../../../../shared/protocol/events';

// An ACP prompt (`session/prompt`) as the app's user message: text blocks joined, images as the
// message's images, embedded resources (an editor's `@file`, its unsaved text included) as file
// mentions the model reads after the text, resource links named in the text. What the app cannot
// take (audio, an image type no model reads) is refused with the reason, before anything is logged.

export interface PromptMessage {
  text: string;
  images: ImageWire[];
  mentions: FileMention[];
}

/** A file URI inside the root as the root-relative path mentions use; anything else as it is. */
function mentionPath(uri: string, root: string): string {
  if (!uri.startsWith('file:')) return uri;
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    return uri;
  }
  const rel = relative(root, path);
  return rel && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel) ? rel : path;
}

export function promptMessage(blocks: readonly ContentBlock[], root: string): PromptMessage {
  const texts: string[] = [];
  const images: ImageWire[] = [];
  const mentions: FileMention[] = [];
  blocks.forEach((block, i) => {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'image': {
        if (block.data.length > IMAGE_MAX_BASE64_CHARS)
          throw RequestError.invalidParams(
            { index: i },
            `prompt[${i}]: the image is larger than 5 MB, the most a model takes: send a smaller one`,
          );
        const parsed = imageWire.safeParse({ media_type: block.mimeType, data: block.data });
        if (!parsed.success)
          throw RequestError.invalidParams(
            { index: i },
            `prompt[${i}]: an image must be PNG, JPEG, GIF or WebP as base64 (got ${block.mimeType})`,
          );
        images.push(parsed.data);
        break;
      }
      case 'resource': {
        const r = block.resource;
        const path = mentionPath(r.uri, root);
        if ('text' in r) mentions.push({ path, text: r.text });
        else
          mentions.push({ path, text: '', note: 'binary content: not read (send text resources)' });
        break;
      }
      case 'resource_link':
        texts.push(`@${mentionPath(block.uri, root)}`);
        break;
      default:
        throw RequestError.invalidParams(
          { index: i },
          `prompt[${i}]: ${block.type} content is not supported (send text, images or resources)`,
        );
    }
  });
  const text = texts.join('\n').trim();
  if (!text && !images.length && !mentions.length)
    throw RequestError.invalidParams(undefined, 'the prompt is empty: send some text');
  return { text, images, mentions };
}
