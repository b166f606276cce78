import { isCredentialName } from '../shells/credential-env';

// The environment a language server gets: the host's, minus every credential-looking variable
// (the names the shells drop, shells/credential-env.ts). A server runs project code paths
// (tsserver plugins named by a tsconfig, pyright's configured interpreters) and needs no keys.

export function serverEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || isCredentialName(key)) continue;
    env[key] = value;
  }
  return env;
}
