import { FileSecretStore } from './file-secret-store';
import type { SecretStore } from './secret-store';

/** Turns a secret into text that only this user's OS keyring can turn back (Electron's safeStorage). */
export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/**
 * Keys sealed by the OS keyring before they reach the 0600 file: a copy of the file alone does not
 * reveal them. The cipher is injected because only electron/main.ts may touch Electron.
 */
export class EncryptedSecretStore implements SecretStore {
  private readonly file: FileSecretStore;

  constructor(
    path: string,
    private readonly cipher: SecretCipher,
  ) {
    this.file = new FileSecretStore(path);
  }

  async get(name: string): Promise<string | undefined> {
    const sealed = await this.file.get(name);
    return sealed === undefined ? undefined : this.cipher.decrypt(sealed);
  }

  set(name: string, value: string): Promise<void> {
    return this.file.set(name, this.cipher.encrypt(value));
  }

  delete(name: string): Promise<void> {
    return this.file.delete(name);
  }
}
