// The environment a language server gets: the host's, minus the app's own credentials (the same
// list the shells drop, shells/shell-env.ts). A server runs project code paths (tsserver plugins
// named by a tsconfig, pyright's configured interpreters) and has no use for model keys.

const SECRET_VARS = new Set(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY']);

export function serverEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || SECRET_VARS.has(key) || key.startsWith('MEWBO_')) continue;
    env[key] = value;
  }
  return env;
}
