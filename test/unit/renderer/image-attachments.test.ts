import { describe, expect, it } from 'vitest';
import { addImages, imageFiles, imagesWire } from '../../../renderer/src/lib/image-attachments';
import { imageWire } from '../../../shared/protocol/events';
import { IMAGES_PER_MESSAGE } from '../../../shared/images/image-file';
import { makePng } from '../../helpers/png';

// "Edit and resend" turns a sent message's images back into files and through addImages, the
// path a fresh paste takes: the same bytes, names, descriptions and limits, and what is sent
// again is what was sent.

const red = makePng(3, 2, [255, 0, 0]);
const b64 = (b: Buffer) => b.toString('base64');

describe('images of a sent message, back in the message box', () => {
  it('come back with their bytes, names and descriptions, and go out as they came in', async () => {
    const sent = [
      { media_type: 'image/png' as const, data: b64(red), name: 'red.png' },
      // Logged before names were kept: named by position and type.
      { media_type: 'image/png' as const, data: b64(makePng(40, 30)) },
    ];
    const files = imageFiles(sent);
    expect(files.map((f) => f.name)).toEqual(['red.png', 'image 2.png']);
    expect(Buffer.from(await files[0]!.arrayBuffer())).toEqual(red);

    const fresh = await addImages([], [new File([red], 'red.png', { type: 'image/png' })]);
    const back = await addImages([], files);
    expect(back.refusals).toEqual([]);
    expect(back.added[0]).toMatchObject({ ...fresh.added[0], id: expect.any(String) });
    expect(back.added[1]!.description).toBe(`PNG, 40×30, ${files[1]!.size} bytes`);

    const again = imagesWire(back.added);
    expect(again).toEqual([sent[0], { ...sent[1], name: 'image 2.png' }]);
    for (const img of again) expect(imageWire.parse(img)).toEqual(img);
  });

  it('meet the same limits as a paste', async () => {
    const many = Array.from({ length: IMAGES_PER_MESSAGE + 1 }, (_, i) => ({
      media_type: 'image/png' as const,
      data: b64(red),
      name: `shot ${i + 1}.png`,
    }));
    const back = await addImages([], imageFiles(many));
    expect(back.added).toHaveLength(IMAGES_PER_MESSAGE);
    expect(back.refusals).toEqual([
      `shot ${IMAGES_PER_MESSAGE + 1}.png was not added: a message takes at most ${IMAGES_PER_MESSAGE} images.`,
    ]);
  });
});
