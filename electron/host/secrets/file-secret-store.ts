import { dirname } from 'node:path';
import PQueue from 'p-queue';
import { readSettingsFile, replaceSettingsFile, settingsRoot } from '../fs/settings-file';
import type { SecretStore } from './secret-store';

/** Owner read/write only: the file holds API keys. */
const SECRETS_FILE_MODE = 0o600;

interface SecretsFile {
  version: 1;
  secrets: Record<string, string>;
}

/** Runs a read-modify-write alone; the host passes the ConfigStore's queue (one for configs/). */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * Keys in one JSON file, mode 0600, replaced atomically on every change (a crash leaves the old or
 * the new file, never a torn one). The shell sandbox denies the directory that holds it.
 */
export class FileSecretStore implements SecretStore {
  private readonly exclusive: Exclusive;

  constructor(
    private readonly file: string,
    exclusive?: Exclusive,
  ) {
    if (exclusive) this.exclusive = exclusive;
    else {
      const queue = new PQueue({ concurrency: 1 });
      this.exclusive = (fn) => queue.add(fn);
    }
  }

  private root(): Promise<string> {
    return settingsRoot(dirname(this.file), true);
  }

  private async read(): Promise<SecretsFile> {
    // Never through a link: one planted at secrets.json would choose the keys the app sends.
    const text = await readSettingsFile(await this.root(), this.file);
    if (text === undefined) return { version: 1, secrets: {} };
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
    return this.exclusive(async () => {
      const data = await this.read();
      fn(data.secrets);
      const text = `${JSON.stringify(data, null, 2)}\n`;
      await replaceSettingsFile(await this.root(), this.file, text, SECRETS_FILE_MODE);
    });
  }

  async get(name: string): Promise<string | undefined> {
    // Atomic replacement means a read never sees half a write; no need to wait in the queue.
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
