import type { SecretStore } from './secret-store';

/** Secrets for this process only: what a component uses when no store was given (tests, tools). */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  get(name: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(name));
  }

  set(name: string, value: string): Promise<void> {
    this.values.set(name, value);
    return Promise.resolve();
  }

  delete(name: string): Promise<void> {
    this.values.delete(name);
    return Promise.resolve();
  }
}
