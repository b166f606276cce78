import { HostError } from '../rpc/host-error';
import type { HandlerMap } from '../rpc/router';

/** What issues browser login links: the web server, in `mewbo serve` only. */
export interface LoginLinkSource {
  newLoginUrl(): { url: string; expiresAt: number };
}

export function webHandlers(
  source: () => LoginLinkSource | undefined,
): Pick<HandlerMap, 'web.loginLink'> {
  return {
    'web.loginLink': async () => {
      const links = source();
      if (!links)
        throw new HostError(
          'unavailable',
          'Browser login links come from the web host: run mewbo serve, then mewbo login.',
        );
      const { url, expiresAt } = links.newLoginUrl();
      return { url, expires_at: expiresAt };
    },
  };
}
