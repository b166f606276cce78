import { z } from 'zod';
import { command } from '../command';

// The web host's login (electron/web/PROTOCOL.md): a logged-in client asks for a one-time login
// link to open the app in another browser. Only `mewbo serve` answers; the desktop window has no
// web listener and gets `unavailable`.

export const webCommands = {
  'web.loginLink': command(
    () => z.object({}),
    () =>
      z.object({
        /** http://127.0.0.1:PORT/login?code=...: works once, until expires_at. */
        url: z.string(),
        /** ms since the epoch. */
        expires_at: z.number(),
      }),
  ),
};
