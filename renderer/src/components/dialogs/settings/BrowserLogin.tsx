import { useState } from 'react';
import { useClient } from '../../../client-context';

/**
 * A one-time login link for another browser (electron/web/PROTOCOL.md): it works once, for one
 * minute, and only the web host (`mewbo serve`) issues one.
 */
export function BrowserLogin() {
  const client = useClient();
  const [link, setLink] = useState<{ url: string; expires_at: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const create = async () => {
    setError(null);
    setCopied(false);
    try {
      setLink(await client.invoke('web.loginLink', {}));
    } catch (err) {
      setLink(null);
      setError((err as Error).message);
    }
  };
  return (
    <div className="form">
      <fieldset>
        <legend>Open the app in another browser</legend>
        <p className="muted">
          A login link works once, for one minute, and logs that browser in until you delete{' '}
          <code>configs/web-host.key</code>. From a terminal: <code>mewbo login</code>.
        </p>
        <button type="button" onClick={() => void create()}>
          New login link
        </button>
        {link && (
          <p>
            <input
              readOnly
              aria-label="Login link"
              value={link.url}
              onFocus={(e) => e.currentTarget.select()}
            />{' '}
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard.writeText(link.url).then(() => setCopied(true))
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </p>
        )}
        {error && <p role="alert">{error}</p>}
      </fieldset>
    </div>
  );
}
