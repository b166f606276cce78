import type { ModelImage, ModelMessage } from './types';

// For a model that takes no images (a text-only local model): each image becomes a line of text
// saying it is not shown and why, so the model neither sees an empty result nor guesses, and the
// server is never sent an image part it would refuse.

const plural = (n: number) => (n === 1 ? 'image' : `${n} images`);

export function imagesAsNotes(messages: readonly ModelMessage[], model: string): ModelMessage[] {
  return messages.map((m) => {
    if (m.role === 'assistant' || !m.images?.length) return m;
    const { images, ...rest } = m;
    const why = `the model ${model} does not take images`;
    if (rest.role === 'user') {
      const note = `[The user attached ${images.length === 1 ? 'an image' : plural(images.length)} that ${images.length === 1 ? 'is' : 'are'} not shown to you: ${why}. Ask the user to describe what you need from ${images.length === 1 ? 'it' : 'them'}.]`;
      return { ...rest, text: rest.text ? `${rest.text}\n\n${note}` : note };
    }
    const note = `[The ${plural(images.length)} this result carries ${images.length === 1 ? 'is' : 'are'} not shown to you: ${why}.]`;
    return { ...rest, content: `${rest.content}\n${note}` };
  });
}

/** An image as a data: URL (OpenAI's image_url / input_image). */
export const dataUrl = (i: ModelImage) => `data:${i.mediaType};base64,${i.data}`;
