/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are whatever JSON was sent */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicImageError,
  chatImageError,
  ollamaImageError,
  responsesImageError,
} from '../../helpers/fake-image-shapes';
import { makePng, noisePng } from '../../helpers/png';
import { Harness, ofType, type HarnessOptions } from './harness';

// read_file on an image file: the image reaches the model, in each provider's documented shape
// (the fakes refuse any other, and check the bytes are the image they claim to be); a model that
// takes no images gets a note saying so instead; an image over the limits is described, not sent.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const png = makePng(3, 2);
const b64 = png.toString('base64');
const dataUrl = `data:image/png;base64,${b64}`;

/** A session that reads photo.png and answers; returns the second request's body. */
async function readPhoto(opts: HarnessOptions, file: Buffer = png): Promise<any> {
  h = await Harness.start({ ...opts, config: { permission_mode: 'auto', ...opts.config } });
  writeFileSync(join(h.project, 'photo.png'), file);
  h.script.push(
    { toolCalls: [{ name: 'read_file', args: { path: 'photo.png' } }] },
    { text: 'red' },
  );
  const id = await h.newSession();
  await h.send(id, 'what colour is photo.png?');
  const events = await h.waitRunEnd(id);
  expect(ofType(events, 'error')).toEqual([]);
  expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('red');
  expect(h.fake.requests).toHaveLength(2);
  return h.fake.requests[1]!.body;
}

const described = expect.stringContaining('photo.png is an image (PNG, 3×2, ');

describe('read_file on an image', () => {
  it('Anthropic: the image is a base64 image block inside the tool_result, after its description', async () => {
    const body = await readPhoto({});
    const result = body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    expect(result.content).toEqual([
      { type: 'text', text: described },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } },
    ]);
    // The bytes go once, as the image: never as text in the result.
    expect(result.content[0].text).not.toContain(b64.slice(0, 40));
  });

  it('OpenAI Responses: the image is an input_image in the function_call_output', async () => {
    const body = await readPhoto({
      wire: 'openai',
      config: { providers: { openai: { api: 'responses' } } },
    });
    const out = body.input.find((i: any) => i.type === 'function_call_output');
    expect(out.output).toEqual([
      { type: 'input_text', text: described },
      { type: 'input_image', image_url: dataUrl, detail: 'auto' },
    ]);
  });

  it('OpenAI Chat Completions (a model that takes images): an image_url part in a user message right after the tool messages', async () => {
    const body = await readPhoto({
      wire: 'openai',
      config: { providers: { openai: { images: true } } },
    });
    const at = body.messages.findIndex((m: any) => m.role === 'tool');
    expect(body.messages[at].content).toEqual(described);
    expect(body.messages[at + 1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '[The image read_file returned:]' },
        { type: 'image_url', image_url: { url: dataUrl } },
      ],
    });
  });

  it('Ollama with a vision model: the image rides on the tool message as bare base64', async () => {
    const body = await readPhoto({
      wire: 'ollama',
      ollama: { models: [{ name: 'qwen2.5vl:7b', contextLength: 32_768, vision: true }] },
    });
    const tool = body.messages.find((m: any) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_name: 'read_file', content: described, images: [b64] });
  });

  it.each([
    ['a compatible server (Chat Completions, images not turned on)', { wire: 'openai' as const }],
    [
      'an Ollama model without vision',
      {
        wire: 'ollama' as const,
        ollama: { models: [{ name: 'qwen3:8b', contextLength: 40_960 }] },
      },
    ],
  ])('%s: no image is sent; the result says why it is not shown', async (_, opts) => {
    const body = await readPhoto(opts);
    const raw = JSON.stringify(body);
    expect(raw).not.toContain(b64.slice(0, 40));
    const tool = body.messages.find((m: any) => m.role === 'tool');
    expect(tool.content).toMatch(
      /photo\.png is an image \(PNG, 3×2, .*\n\[The image this result carries is not shown to you: the model \S+ does not take images\.\]$/s,
    );
  });

  it('an image over 8000 pixels a side, or over 5 MB, is described and not sent', async () => {
    const wide = makePng(9000, 1);
    let body = await readPhoto({}, wide);
    let result = body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    expect(typeof result.content).toBe('string');
    expect(result.content).toContain('photo.png is an image (PNG, 9000×1, ');
    expect(result.content).toContain(
      'not shown: it is 9000×1 pixels; a model takes at most 8000 pixels a side',
    );
    await h!.close();

    const big = Buffer.concat([makePng(10, 10), Buffer.alloc(5 * 1024 * 1024)]);
    body = await readPhoto({}, big);
    result = body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    expect(result.content).toContain(
      'not shown: it is 5.0 MB, over the 5.0 MB a model takes per image',
    );
    expect(JSON.stringify(body)).not.toContain('"type":"image"');
  });
});

describe('images the user sends, to a model that takes none', () => {
  it('a compatible server gets a note in the message instead of the image', async () => {
    h = await Harness.start({ wire: 'openai' });
    h.script.push({ text: 'cannot see it' });
    const id = await h.newSession();
    await h.invoke('sessions.send', {
      id,
      text: 'what is this?',
      images: [{ media_type: 'image/png', data: b64 }],
      capabilities: [],
    });
    await h.waitRunEnd(id);
    const user = h.fake.requests[0]!.body.messages.find((m: any) => m.role === 'user');
    expect(user.content).toMatch(
      /^what is this\?\n\n\[The user attached an image that is not shown to you: the model \S+ does not take images\./,
    );
  });

  it('OpenAI Chat Completions with images on: text and image_url parts', async () => {
    h = await Harness.start({
      wire: 'openai',
      config: { providers: { openai: { images: true } } },
    });
    h.script.push({ text: 'red' });
    const id = await h.newSession();
    await h.invoke('sessions.send', {
      id,
      text: 'what is this?',
      images: [{ media_type: 'image/png', data: b64 }],
      capabilities: [],
    });
    await h.waitRunEnd(id);
    const user = h.fake.requests[0]!.body.messages.find((m: any) => m.role === 'user');
    expect(user.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: dataUrl } },
    ]);
  });
});

describe('the fakes refuse the shapes the real APIs refuse (the checks above are not vacuous)', () => {
  it('the image caps: Anthropic over 100 images, or over 20 with one past 2000 px a side; OpenAI over 500', () => {
    const block = (p: Buffer) => ({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: p.toString('base64') },
    });
    const body = (images: Buffer[]) => ({
      messages: [{ role: 'user', content: images.map(block) }],
    });
    expect(anthropicImageError(body(Array.from({ length: 100 }, () => png)))).toBeNull();
    expect(anthropicImageError(body(Array.from({ length: 101 }, () => png)))).toMatch(
      /Too many images in the request: 101 > 100/,
    );
    const parts = (n: number) =>
      Array.from({ length: n }, () => ({ type: 'image_url', image_url: { url: dataUrl } }));
    expect(chatImageError({ messages: [{ role: 'user', content: parts(500) }] })).toBeNull();
    expect(chatImageError({ messages: [{ role: 'user', content: parts(501) }] })).toMatch(
      /Too many images in the request: 501 > 500/,
    );
    const input = (n: number) => [
      {
        role: 'user',
        content: Array.from({ length: n }, () => ({ type: 'input_image', image_url: dataUrl })),
      },
    ];
    expect(responsesImageError({ input: input(500) })).toBeNull();
    expect(responsesImageError({ input: input(501) })).toMatch(/501 > 500/);
    const wide = makePng(2001, 1);
    expect(anthropicImageError(body([wide, ...Array.from({ length: 19 }, () => png)]))).toBeNull();
    expect(anthropicImageError(body([wide, ...Array.from({ length: 20 }, () => png)]))).toMatch(
      /messages\.0\.content\.0: image dimensions exceed max allowed size for many-image requests/,
    );
  });

  it('each wrong place or encoding of an image is a 400', () => {
    const toolResult = (content: unknown) => ({
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content }] }],
    });
    expect(
      anthropicImageError(
        toolResult([
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: b64 } },
        ]),
      ),
    ).toMatch(/is image\/png, not the image\/jpeg/);
    expect(
      anthropicImageError(
        toolResult([{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }]),
      ),
    ).toMatch(/image.source must be/);
    expect(
      chatImageError({
        messages: [
          {
            role: 'tool',
            tool_call_id: 'c',
            content: [{ type: 'image_url', image_url: { url: dataUrl } }],
          },
        ],
      }),
    ).toMatch(/tool messages take text parts only/);
    expect(
      responsesImageError({
        input: [
          { type: 'function_call_output', call_id: 'c', output: [{ type: 'image', data: b64 }] },
        ],
      }),
    ).toMatch(/unknown part type image/);
    expect(
      ollamaImageError({ messages: [{ role: 'tool', content: '', images: [dataUrl] }] }),
    ).toMatch(/not base64/);
    expect(
      ollamaImageError({
        messages: [{ role: 'user', content: '', images: [btoa('not an image')] }],
      }),
    ).toMatch(/not a PNG/);
  });
});

describe("a long session's images stay under the provider's caps and the context budget", () => {
  /** Every image a request carries, in order: where, and its base64. */
  function imagesIn(body: any): string[] {
    const out: string[] = [];
    for (const m of body.messages)
      for (const b of Array.isArray(m.content) ? m.content : [])
        for (const c of b.type === 'tool_result' && Array.isArray(b.content) ? b.content : [b])
          if (c.type === 'image') out.push(c.source.data);
    return out;
  }
  const textOf = (body: any) => JSON.stringify(body.messages);

  it('Anthropic: past 100 images the oldest are left out for a note each; the newest stay intact', async () => {
    h = await Harness.start({ config: { permission_mode: 'auto' } });
    // 2 pasted images, then 7 turns reading 15 distinct image files each: 107 images in all.
    const files = Array.from({ length: 105 }, (_, i) => ({
      name: `shots/s${String(i).padStart(3, '0')}.png`,
      data: makePng(3 + i, 2, [i, 255 - i, 7]),
    }));
    mkdirSync(join(h.project, 'shots'));
    for (const f of files) writeFileSync(join(h.project, f.name), f.data);
    for (let t = 0; t < 7; t++)
      h.script.push({
        toolCalls: files
          .slice(t * 15, t * 15 + 15)
          .map((f) => ({ name: 'read_file', args: { path: f.name } })),
      });
    h.script.push({ text: 'seen them all' });
    const pasted = [makePng(5, 5, [1, 2, 3]), makePng(6, 6, [4, 5, 6])];
    const id = await h.newSession();
    await h.invoke('sessions.send', {
      id,
      text: 'compare these with the shots',
      images: pasted.map((p) => ({ media_type: 'image/png' as const, data: p.toString('base64') })),
      capabilities: [],
    });
    const events = await h.waitRunEnd(id, 0, 60_000);
    // The fake refuses a request over 100 images (400), as the API does: none was refused.
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('seen them all');
    const requests = h.fake.requests.map((r) => r.body);
    expect(requests).toHaveLength(8);
    for (const body of requests) expect(imagesIn(body).length).toBeLessThanOrEqual(100);

    // The last request: 107 images, so the oldest 10 (a group of IMAGES_OMIT_STEP) are left out.
    const last = requests.at(-1)!;
    const all = [...pasted, ...files.map((f) => f.data)].map((b) => b.toString('base64'));
    expect(imagesIn(last)).toEqual(all.slice(10));
    const text = textOf(last);
    expect(text.match(/\[image omitted: an image the user attached \(PNG, /g)).toHaveLength(2);
    for (const f of files.slice(0, 8))
      expect(text).toContain(`[image omitted: ${f.name} (PNG, ${f.data.readUInt32BE(16)}×2)`);
    expect(text).not.toContain(`[image omitted: ${files[8]!.name}`);
    // The log keeps every image.
    const logged = ofType(await h.events(id), 'tool_result').filter(
      (e) => e.payload.kind === 'image',
    );
    expect(logged).toHaveLength(105);
    // Before the cap, every image went: the request before the last carried all 92 of its images.
    expect(imagesIn(requests.at(-2)!)).toEqual(all.slice(0, 92));
  });

  it('Anthropic: a request stays under 32 MB, however many full-size screenshots were read', async () => {
    h = await Harness.start({ config: { permission_mode: 'auto' } });
    // Seven ~4 MB images that do not compress: 37 MB of base64 together, over the API's 32 MB.
    const shots = Array.from({ length: 7 }, (_, i) => ({
      name: `shot${i}.png`,
      data: noisePng(1150 + i, 1150),
    }));
    for (const f of shots) writeFileSync(join(h.project, f.name), f.data);
    for (const f of shots)
      h.script.push({ toolCalls: [{ name: 'read_file', args: { path: f.name } }] });
    h.script.push({ text: 'done' });
    const id = await h.newSession();
    await h.send(id, 'look at the screenshots');
    const events = await h.waitRunEnd(id, 0, 120_000);
    // The fake answers 413 past 32 MB, as the API does.
    expect(ofType(events, 'error')).toEqual([]);
    const last = h.fake.requests.at(-1)!;
    expect(Buffer.byteLength(JSON.stringify(last.body))).toBeLessThan(32 * 1024 * 1024);
    const kept = imagesIn(last.body);
    expect(kept).toEqual(shots.slice(7 - kept.length).map((f) => f.data.toString('base64')));
    expect(kept.length).toBeLessThan(7);
    expect(textOf(last.body)).toContain('[image omitted: shot0.png (PNG, 1150×1150)');
  }, 180_000);

  it('images that push the estimate over the budget are left out before any compaction', async () => {
    // A 12,000-token window compacts past 7,200 estimated tokens; each 1000×1000 image is ~1,334.
    h = await Harness.start({
      config: { permission_mode: 'auto', model: { context_window: 12_000 } },
    });
    const big = Array.from({ length: 8 }, (_, i) => ({
      name: `big${i}.png`,
      data: makePng(1000, 1000, [i * 30, 0, 0]),
    }));
    for (const f of big) writeFileSync(join(h.project, f.name), f.data);
    for (const f of big)
      h.script.push({ toolCalls: [{ name: 'read_file', args: { path: f.name } }] });
    // The note says to read the file again: that read gives the image, not "you already have it".
    h.script.push({ toolCalls: [{ name: 'read_file', args: { path: 'big0.png' } }] });
    h.script.push({ text: 'done' });
    const id = await h.newSession();
    await h.send(id, 'look at the big images');
    const events = await h.waitRunEnd(id, 0, 60_000);
    expect(ofType(events, 'error')).toEqual([]);
    // No summary was asked for: leaving images out was enough.
    expect(ofType(events, 'compaction')).toEqual([]);
    const before = h.fake.requests.at(-2)!.body;
    const kept = imagesIn(before);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(8);
    // The newest stay; the oldest are notes.
    expect(kept).toEqual(big.slice(8 - kept.length).map((f) => f.data.toString('base64')));
    expect(textOf(before)).toContain('[image omitted: big0.png (PNG, 1000×1000)');
    const reread = ofType(events, 'tool_result').at(-1)!;
    expect(reread.payload.kind).toBe('image');
    expect(imagesIn(h.fake.requests.at(-1)!.body).at(-1)).toBe(big[0]!.data.toString('base64'));
  });
});
