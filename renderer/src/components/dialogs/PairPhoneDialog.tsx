import { useCallback, useEffect, useState } from 'react';
import { useClient } from '../../client-context';
import { Dialog } from '../common/Dialog';
import { errorText } from '../../state/agent-actions';
import { useHostQuery } from '../../lib/use-host-query';
import type { PairingOffer } from '../../../../shared/device/api';
import { formatAgo } from '../../lib/format';
import { deviceToolsText } from './device-tools-text';

/**
 * "Pair phone": turns the LAN listener on, shows a one-time offer (QR code, the code as text, the
 * URL and the certificate fingerprint to compare on the phone), and lists paired phones with revoke.
 */
export function PairPhoneDialog({ onClose }: { onClose: () => void }) {
  const client = useClient();
  const [offer, setOffer] = useState<PairingOffer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const devices = useHostQuery('devices.list', {}, 'devices');
  const now = useNow();

  const newOffer = useCallback(async () => {
    setError(null);
    try {
      setOffer(await client.invoke('devices.createOffer', {}));
    } catch (err) {
      setError(errorText(err));
    }
  }, [client]);
  useEffect(() => void newOffer(), [newOffer]);

  // The LAN listener stays up after the dialog closes (a phone reconnects through it); this closes it.
  const stopPairing = async () => {
    try {
      await client.invoke('devices.disablePairing', {});
      onClose();
    } catch (err) {
      setError(errorText(err));
    }
  };

  const revoke = async (id: string) => {
    try {
      await client.invoke('devices.revoke', { device_id: id });
      devices.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };

  const left = offer ? Math.max(0, Math.round((offer.expires_at - now) / 1000)) : 0;
  return (
    <Dialog label="Pair phone" onClose={onClose} className="pair">
      <header className="dialog-head">
        <h2>Pair a phone</h2>
        <button type="button" className="icon" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {offer && (
        <div className="pair-offer">
          <img
            className="qr"
            src={offer.qr_png_data_url}
            alt={`QR code for ${offer.pairing_url}`}
            width={220}
            height={220}
          />
          <dl className="kv">
            <div className="kv-row">
              <dt>Code</dt>
              <dd className="pair-code" aria-label="Pairing code">
                {offer.code}
              </dd>
            </div>
            <div className="kv-row">
              <dt>Address</dt>
              <dd>
                <code>{offer.url}</code>
              </dd>
            </div>
            <div className="kv-row">
              <dt>Fingerprint</dt>
              <dd>
                <code className="fingerprint">{offer.fingerprint}</code>
              </dd>
            </div>
            <div className="kv-row">
              <dt>Expires</dt>
              <dd>
                {left > 0
                  ? `in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
                  : 'expired'}
              </dd>
            </div>
          </dl>
          <p className="muted small">
            Scan the code with the phone’s camera on the same network. Check that the phone shows
            the same fingerprint before you trust it.
          </p>
          <div className="actions start">
            <button type="button" onClick={() => void newOffer()}>
              New code
            </button>
            <button
              type="button"
              onClick={() => void stopPairing()}
              title="Closes the LAN listener: paired phones cannot connect until you pair again"
            >
              Turn off the phone listener
            </button>
          </div>
        </div>
      )}
      <section aria-label="Paired phones" className="paired">
        <h3>Paired phones</h3>
        {devices.data && devices.data.devices.length === 0 && (
          <p className="muted small">None yet.</p>
        )}
        <ul className="device-list">
          {devices.data?.devices.map((d) => (
            <li key={d.device_id}>
              <span className={`run-dot ${d.attached ? 'running' : 'idle'}`} aria-hidden="true" />
              <strong>{d.name}</strong>
              <span className="muted small">
                {d.attached
                  ? 'connected'
                  : d.last_seen
                    ? `seen ${formatAgo(d.last_seen)} ago`
                    : 'never connected'}{' '}
                · {deviceToolsText(d.tools)}
              </span>
              <button
                type="button"
                className="danger small"
                onClick={() => void revoke(d.device_id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      </section>
    </Dialog>
  );
}

/** Wall-clock seconds for a countdown. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}
