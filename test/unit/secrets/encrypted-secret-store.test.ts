import { describe, expect, it } from 'vitest';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  EncryptedSecretStore,
  type SecretCipher,
} from '../../../electron/host/secrets/encrypted-secret-store';
import { tempDir } from '../../helpers/temp';

// A real cipher standing in for the OS keyring (safeStorage is Electron-only).
function aesCipher(key = randomBytes(32)): SecretCipher {
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
    },
    decrypt(sealed) {
      const buf = Buffer.from(sealed, 'base64');
      const d = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

describe('keys sealed by the keyring', () => {
  it('round-trips a key while the file on disk never holds it in the clear, mode 0600', async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'secrets.json');
      const store = new EncryptedSecretStore(file, aesCipher());
      await store.set('providers.anthropic.api_key', 'sk-ant-very-secret');
      expect(await store.get('providers.anthropic.api_key')).toBe('sk-ant-very-secret');
      expect(readFileSync(file, 'utf8')).not.toContain('sk-ant-very-secret');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      await store.delete('providers.anthropic.api_key');
      expect(await store.get('providers.anthropic.api_key')).toBeUndefined();
    } finally {
      t.cleanup();
    }
  });

  it('a file sealed by another keyring does not decrypt', async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'secrets.json');
      await new EncryptedSecretStore(file, aesCipher()).set('k', 'v');
      await expect(new EncryptedSecretStore(file, aesCipher()).get('k')).rejects.toThrow();
    } finally {
      t.cleanup();
    }
  });
});
