// Where API keys live. Two implementations: a 0600 JSON file under $MEWBO_HOME/configs (the web
// host, tests, `mewbo run`) and Electron's safeStorage (plugged in by electron/main.ts). Nothing
// else reads keys from disk, and no key is ever written into configs/app.json by the app.

export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** The secret name of a provider's API key. */
export function apiKeySecret(provider: string): string {
  return `providers.${provider}.api_key`;
}
