import { describe, expect, it } from 'vitest';
import { trustedSender, type FrameLike } from '../../../electron/window/ipc-sender';

// Route 12 of the trust boundary: only the app's own page, in its window's main frame, may talk
// to the host over IPC. Frames are plain objects shaped like Electron's WebFrameMain.

const frame = (url: string): FrameLike => ({ url });

function event(senderFrame: FrameLike | null, mainFrame: FrameLike) {
  return { senderFrame, sender: { mainFrame } };
}

describe('IPC sender check', () => {
  it("the app's page in the main frame is trusted (also after in-app navigation)", () => {
    const main = frame('app://mewbo/index.html');
    expect(trustedSender(event(main, main))).toBe(true);
    const moved = frame('app://mewbo/index.html?session=s_1#end');
    expect(trustedSender(event(moved, moved))).toBe(true);
  });

  it('a subframe is refused, even one of the app origin', () => {
    const main = frame('app://mewbo/index.html');
    expect(trustedSender(event(frame('app://mewbo/index.html'), main))).toBe(false);
    expect(trustedSender(event(frame('https://evil.example/'), main))).toBe(false);
  });

  it('a main frame of a foreign origin is refused', () => {
    for (const url of [
      'https://evil.example/index.html',
      'file:///home/user/renderer/index.html',
      'app://evil/index.html',
      'app://mewbo.evil.example/index.html',
      'http://127.0.0.1:5173/',
      'about:blank',
      'data:text/html,hi',
    ]) {
      const main = frame(url);
      expect(trustedSender(event(main, main)), url).toBe(false);
    }
  });

  it('a sender whose frame is gone is refused', () => {
    expect(trustedSender(event(null, frame('app://mewbo/index.html')))).toBe(false);
  });
});
