import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-json';
import { CERT_VALIDITY_DAYS } from './constants';

// The pairing listener's TLS identity, generated once and kept under $MEWBO_HOME/state (the key
// 0600). Phones cannot chain it to a CA; they pin its fingerprint, which the QR code carries.

export interface ListenerCertificate {
  key: string;
  cert: string;
  /** SHA-256 of the DER certificate, "AB:CD:..." (what browsers show as the SHA-256 fingerprint). */
  fingerprint: string;
}

const KEY_FILE = 'device-tls-key.pem';
const CERT_FILE = 'device-tls-cert.pem';
/** Renew this long before expiry so a phone never meets an expired certificate. */
const RENEW_BEFORE_MS = 30 * 24 * 3600_000;

/** Loads the kept certificate, or generates one naming `ips` (plus loopback) when none is usable. */
export async function loadOrCreateCertificate(
  stateDir: string,
  ips: string[],
  now = Date.now(),
): Promise<ListenerCertificate> {
  const keyPath = join(stateDir, KEY_FILE);
  const certPath = join(stateDir, CERT_FILE);
  const kept = await readKept(keyPath, certPath, now);
  if (kept) return kept;

  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const notBeforeDate = new Date(now - 60_000);
  const notAfterDate = new Date(now + CERT_VALIDITY_DAYS * 24 * 3600_000);
  const names = [...new Set(['127.0.0.1', ...ips])];
  // Loaded here, not at start-up: the X.509 stack is large and only a first pairing needs it.
  // A CommonJS package: bundlers and vitest may put its exports under `default` only.
  const mod = (await import('selfsigned')) as typeof import('selfsigned') & {
    default?: typeof import('selfsigned');
  };
  const generate = mod.generate ?? mod.default!.generate;
  const pems = await generate([{ name: 'commonName', value: 'Mewbo Desktop device listener' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          ...names.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  await writeFileAtomic(keyPath, pems.private, { mode: 0o600 });
  await writeFileAtomic(certPath, pems.cert, { mode: 0o644 });
  return { key: pems.private, cert: pems.cert, fingerprint: fingerprintOf(pems.cert) };
}

export function fingerprintOf(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

async function readKept(
  keyPath: string,
  certPath: string,
  now: number,
): Promise<ListenerCertificate | undefined> {
  try {
    const [key, cert] = await Promise.all([readFile(keyPath, 'utf8'), readFile(certPath, 'utf8')]);
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - RENEW_BEFORE_MS <= now) return undefined;
    return { key, cert, fingerprint: x509.fingerprint256 };
  } catch {
    // Missing or unreadable: a new identity is the only way forward (phones re-pin it).
    return undefined;
  }
}
