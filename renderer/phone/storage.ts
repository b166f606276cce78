// What the page keeps in localStorage (per origin: https://<desktop-ip>:<port>). The device token
// is the phone's only secret; "Forget this desktop" removes it.

const CREDENTIALS_KEY = 'mewbo.device';
const FLAG_PREFIX = 'mewbo.flag.';

export interface Credentials {
  device_id: string;
  token: string;
  name: string;
}

export function loadCredentials(): Credentials | undefined {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(CREDENTIALS_KEY) ?? 'null');
    const c = value as Partial<Credentials> | null;
    if (
      c &&
      typeof c.device_id === 'string' &&
      typeof c.token === 'string' &&
      typeof c.name === 'string'
    ) {
      return { device_id: c.device_id, token: c.token, name: c.name };
    }
  } catch {
    // A damaged entry is the same as none: the phone pairs again.
  }
  return undefined;
}

export function saveCredentials(credentials: Credentials): void {
  localStorage.setItem(CREDENTIALS_KEY, JSON.stringify(credentials));
}

export function clearCredentials(): void {
  localStorage.removeItem(CREDENTIALS_KEY);
}

export function flag(name: string): boolean {
  return localStorage.getItem(FLAG_PREFIX + name) === '1';
}

export function setFlag(name: string, on: boolean): void {
  localStorage.setItem(FLAG_PREFIX + name, on ? '1' : '0');
}
