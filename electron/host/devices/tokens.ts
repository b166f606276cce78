import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

// Secrets of the device protocol. Tokens are 256 random bits; only their sha256 is kept at rest,
// so a copied devices file cannot impersonate a phone.

/** A bearer secret: 32 random bytes, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A short random id with a prefix, e.g. dev_3f9a0c2b1e7d4a55. */
export function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** Six decimal digits, uniformly drawn (a person may have to type it). */
export function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** sha256 of the secret's UTF-8 bytes (a string's default encoding), as hex. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares a presented secret with a stored sha256 in constant time. */
export function matchesHash(presented: string, storedHex: string): boolean {
  const a = Buffer.from(sha256Hex(presented), 'hex');
  const b = Buffer.from(storedHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
