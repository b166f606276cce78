import { readFile } from 'node:fs/promises';
import { writeJsonAtomic } from '../store/atomic-json';
import type { SecretStore } from './secret-store';

/** Owner read/write only: the file holds API keys. */
const SECRETS_FILE_MODE = 0o600;

interface SecretsFile {
  version: 1;
  secrets: Record<string, string>;
}

/**
 * Keys in one JSON file, mode 0600, replaced atomically on every change (a crash leaves the old or
 * the new file, never a torn one). The shell sandbox denies the directory that holds it.
 */
export class FileSecretStore implements SecretStore {
  /** Serializes read-modify-write cycles so two quick sets cannot lose one. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string) {}

  private async read(): Promise<SecretsFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, secrets: {} };
      throw err;
    }
    const json = JSON.parse(text) as Partial<SecretsFile>;
    if (
      !json ||
      typeof json !== 'object' ||
      typeof json.secrets !== 'object' ||
      json.secrets === null
    ) {
      throw new Error(
        `${this.file}: not a secrets file (expected {"version": 1, "secrets": {...}})`,
      );
    }
    return { version: 1, secrets: { ...json.secrets } };
  }

  private update(fn: (secrets: Record<string, string>) => void): Promise<void> {
    const next = this.chain.then(async () => {
      const data = await this.read();
      fn(data.secrets);
      await writeJsonAtomic(this.file, data, SECRETS_FILE_MODE);
    });
    this.chain = next.catch(() => {});
    return next;
  }

  async get(name: string): Promise<string | undefined> {
    await this.chain;
    const value = (await this.read()).secrets[name];
    return typeof value === 'string' ? value : undefined;
  }

  set(name: string, value: string): Promise<void> {
    return this.update((s) => {
      s[name] = value;
    });
  }

  delete(name: string): Promise<void> {
    return this.update((s) => {
      delete s[name];
    });
  }
}
