import type { Locator } from '@playwright/test';

// What a person puts in the message box other than typing: files pasted or dropped (real File
// objects made in the page, so the app reads their bytes as it would a screenshot's) and long
// text pasted from the clipboard. The image, pasted-text and edit-and-resend specs share these.

export interface FileSpec {
  name: string;
  type: string;
  base64?: string;
  /** Instead of base64: this many bytes, starting with a PNG signature (a big "image"). */
  pngBytes?: number;
}

export const png = (name: string, buf: Buffer): FileSpec => ({
  name,
  type: 'image/png',
  base64: buf.toString('base64'),
});

/** A DataTransfer holding real File objects, made in the page. */
function transfer(target: Locator, files: FileSpec[]) {
  return target.page().evaluateHandle((specs) => {
    const dt = new DataTransfer();
    for (const f of specs) {
      let bytes: Uint8Array<ArrayBuffer>;
      if (f.pngBytes) {
        bytes = new Uint8Array(f.pngBytes);
        bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      } else bytes = Uint8Array.from(atob(f.base64!), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
}

export async function pasteFiles(target: Locator, files: FileSpec[]) {
  const dt = await transfer(target, files);
  await target.evaluate((el, data) => {
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, dt);
}

export async function dropFiles(target: Locator, files: FileSpec[]) {
  const dt = await transfer(target, files);
  await target.dispatchEvent('dragenter', { dataTransfer: dt });
  await target.dispatchEvent('dragover', { dataTransfer: dt });
  await target.dispatchEvent('drop', { dataTransfer: dt });
}

/** Pastes `text` into `target` the way a browser does (a paste event carrying the clipboard). */
export async function pasteText(target: Locator, text: string) {
  await target.evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}
