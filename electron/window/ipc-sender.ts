import { isAppUrl } from './app-origin';

// Who may talk to the host over IPC (VS Code's validated ipcMain): only the app's own page, in
// the main frame of its window. An iframe (even one of the app's origin), a page that navigated
// elsewhere, or a frame already gone is refused. Structural types, so main.ts passes Electron's
// IpcMainEvent as is and tests pass plain objects.

export interface FrameLike {
  readonly url: string;
}

export interface IpcSenderEvent {
  /** The frame that sent the message; null when it was destroyed or navigated since. */
  readonly senderFrame: FrameLike | null;
  readonly sender: { readonly mainFrame: FrameLike };
}

export function trustedSender(e: IpcSenderEvent): boolean {
  const frame = e.senderFrame;
  return !!frame && frame === e.sender.mainFrame && isAppUrl(frame.url);
}
