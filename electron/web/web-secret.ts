import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { SECRET_BYTES } from './constants';

// The web host's one persisted secret: the login cookie and the proofs of `mewbo login` derive
// from it, so a browser stays logged in across restarts and only a process that can read this file
// can log a new browser in. It lives under $MEWBO_HOME/configs (beside the API keys), which the
// shell sandbox denies; the file is the owner's alone (0600). A copy anyone else could read has
// leaked, and is replaced (which logs every browser out).

const SECRET_MODE = 0o600;

/** Reads the secret at `file`, or creates it; replaces one that is not owner-only. */
export function loadOrCreateWebSecret(file: string): Buffer {
  const existing = readWebSecret(file);
  if (existing) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(SECRET_BYTES);
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  // O_EXCL: the temp name is fresh, never a file (or a link) someone placed there.
  const fd = openSync(tmp, 'wx', SECRET_MODE);
  try {
    writeSync(fd, secret.toString('hex') + '\n');
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return secret;
}

/** The secret at `file` if it exists, is a regular file and is this user's alone; else null. */
export function readWebSecret(file: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || (st.mode & 0o077) !== 0 || (uid !== undefined && st.uid !== uid))
      return null;
    const hex = readFileSync(fd, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
  } finally {
    closeSync(fd);
  }
}
