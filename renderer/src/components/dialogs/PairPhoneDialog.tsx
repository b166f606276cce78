import { Fragment, useCallback, useEffect, useState } from 'react';
import { useClient } from '../../client-context';
import { Dialog } from '../common/Dialog';
import { errorText } from '../../state/agent-actions';
import { useHostQuery } from '../../lib/use-host-query';
import type { DeviceInfo, PairingOffer } from '../../../../shared/device/api';
import { formatAgo } from '../../lib/format';
import { deviceToolsText } from './device-tools-text';

/**
 * "Pair phone": turns the LAN listener on, shows a one-time offer (QR code, the code as text, the
 * URL and the certificate fingerprint to compare on the phone), and lists paired phones with their
 * rights ("Remote", "Screen control": off by default, per phone, revocable at once) and revoke.
 * Closed with no phone paired, it turns the listener off again (useListenerForDialog).
 */
export function PairPhoneDialog({ onClose }: { onClose: () => void }) {
  const client = useClient();
  const [offer, setOffer] = useState<PairingOffer | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The rights of the phone that pairs with the code on screen: a new code when it changes, so a
  // code shown before never gains rights it was not shown with.
  const [offerRemote, setOfferRemote] = useState(false);
  const devices = useHostQuery('devices.list', {}, 'devices');
  const now = useNow();
  const listener = useListenerForDialog();

  const newOffer = useCallback(async () => {
    setError(null);
    try {
      if (!(await listener.opening())) return;
      setOffer(await client.invoke('devices.createOffer', { remote: offerRemote }));
    } catch (err) {
      setError(errorText(err));
    }
  }, [client, offerRemote, listener]);
  useEffect(() => void newOffer(), [newOffer]);

  const setRights = async (id: string, change: { remote?: boolean; screen_control?: boolean }) => {
    try {
      await client.invoke('devices.setRights', { device_id: id, ...change });
      devices.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };

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
                <Fingerprint value={offer.fingerprint} />
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
          <p className="muted small" role="note">
            While this is open, the app listens for phones on your network at the address above.
            Closed with no phone paired, it stops listening; once a phone has paired, it stays on so
            paired phones can reconnect (turn it off below).
          </p>
          <label className="check">
            <input
              type="checkbox"
              checked={offerRemote}
              onChange={(e) => setOfferRemote(e.target.checked)}
            />
            Give this phone remote rights (see waiting approvals and questions, decide and answer
            them, send a short message)
          </label>
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
      {/* Drawn with the offer, not before it: the offer arriving above never moves the list
          (and its switches) from under a click. */}
      {(offer || error) && (
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
                {d.screen_control && (
                  <span className="badge screen-on" role="status">
                    Screen control on
                  </span>
                )}
                <span className="device-rights">
                  <RightSwitch
                    device={d}
                    label="Remote"
                    title="Approve, deny and answer from this phone, see sessions and send a short message. Off closes its connection at once."
                    checked={d.remote}
                    onChange={(on) => void setRights(d.device_id, { remote: on })}
                  />
                  <RightSwitch
                    device={d}
                    label="Screen control"
                    title="Offer this phone's device_screen_* tools to the agent; each call asks first in ask mode."
                    checked={d.screen_control}
                    onChange={(on) => void setRights(d.device_id, { screen_control: on })}
                  />
                  <button
                    type="button"
                    className="danger small"
                    onClick={() => void revoke(d.device_id)}
                  >
                    Revoke
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  );
}

/**
 * The LAN listener as this dialog leaves it: what was there when it opened (listening, which
 * phones were paired) is read before the first offer turns the listener on; on close, the
 * listener is turned off again unless a phone paired while the dialog was open, or it was on
 * already for phones paired before (they reconnect through it). No LAN socket stays open for a
 * dialog that was only looked at.
 */
function useListenerForDialog() {
  const client = useClient();
  const [tracker] = useState(() => {
    let before: { listening: boolean; devices: Set<string> } | null = null;
    let closed = false;
    return {
      /** Before an offer: false once the dialog has closed (no listener for a closed dialog). */
      async opening(): Promise<boolean> {
        if (!before) {
          const [status, list] = await Promise.all([
            client.invoke('devices.status', {}),
            client.invoke('devices.list', {}),
          ]);
          before ??= {
            listening: status.listening,
            devices: new Set(list.devices.map((d) => d.device_id)),
          };
        }
        return !closed;
      },
      open(): void {
        closed = false;
      },
      async close(): Promise<void> {
        closed = true;
        const found = before;
        if (!found) return;
        const { devices } = await client.invoke('devices.list', {});
        if (devices.some((d) => !found.devices.has(d.device_id))) return;
        if (found.listening && devices.length > 0) return;
        await client.invoke('devices.disablePairing', {});
      },
    };
  });
  useEffect(() => {
    tracker.open();
    // Closing has no screen left to show a failure on; the dialog reopened shows the state.
    return () => void tracker.close().catch(() => undefined);
  }, [tracker]);
  return tracker;
}

/** One right of one phone, as a switch named by the right and the phone. */
function RightSwitch(props: {
  device: DeviceInfo;
  label: string;
  title: string;
  checked: boolean;
  onChange(on: boolean): void;
}) {
  return (
    <button
      type="button"
      role="switch"
      className="switch small"
      aria-checked={props.checked}
      aria-label={`${props.label} for ${props.device.name}`}
      title={props.title}
      onClick={() => props.onChange(!props.checked)}
    >
      {props.label}: {props.checked ? 'on' : 'off'}
    </button>
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

/** The certificate's fingerprint, free to wrap only between its bytes. */
function Fingerprint({ value }: { value: string }) {
  const bytes = value.split(':');
  return (
    <code className="fingerprint">
      {bytes.map((b, i) => (
        <Fragment key={i}>
          <span className="byte">
            {b}
            {i < bytes.length - 1 ? ':' : ''}
          </span>
          <wbr />
        </Fragment>
      ))}
    </code>
  );
}
