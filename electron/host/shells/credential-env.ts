// Which environment variables carry credentials. A shell runs whatever the agent (or a hostile
// repository's script) says, so it gets none of them unless the user names one in
// agent.shell_env_allow. Matched by name, because the values cannot be told apart.

const CREDENTIAL_NAMES: RegExp[] = [
  /_API_KEY$/,
  /(^|_)API_?KEY$/,
  /_TOKEN$/,
  /^GH_TOKEN$/,
  /^GITHUB_TOKEN$/,
  /_SECRET$/,
  /_SECRET_/,
  /(SECRET|PRIVATE|ACCESS)_KEY/,
  /PASSWORD/,
  /PASSWD/,
  /_CREDENTIALS?$/,
  /^AWS_/,
  // The app's own providers and settings, whatever the suffix (ANTHROPIC_AUTH_TOKEN, base URLs).
  /^ANTHROPIC_/,
  /^OPENAI_/,
  /^MEWBO_/,
];

export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  return CREDENTIAL_NAMES.some((re) => re.test(upper));
}

/** The names of `env` a shell does not get: credential-looking and not allowed by the user. */
export function withheldNames(env: NodeJS.ProcessEnv, allow: readonly string[]): string[] {
  return Object.keys(env)
    .filter((k) => env[k] !== undefined && isCredentialName(k) && !allow.includes(k))
    .sort();
}
