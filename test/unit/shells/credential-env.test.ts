import { describe, expect, test } from 'vitest';
import { isCredentialName, withheldNames } from '../../../electron/host/shells/credential-env';

describe('credential-looking environment names', () => {
  test('the names the issue lists are credentials; ordinary settings are not', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'GH_TOKEN',
      'npm_token',
      'CLIENT_SECRET',
      'DB_PASSWORD',
      'MYSQL_PWD_PASSWORD_FILE',
      'AWS_REGION',
      'ANTHROPIC_BASE_URL',
      'MEWBO_HOME',
      'GOOGLE_APPLICATION_CREDENTIALS',
    ])
      expect(isCredentialName(name), name).toBe(true);
    for (const name of ['PATH', 'HOME', 'LANG', 'TERM', 'SSH_AUTH_SOCK', 'TOKENIZERS_PARALLELISM'])
      expect(isCredentialName(name), name).toBe(false);
  });

  test('allowed names are not withheld; the list is sorted', () => {
    const env = { B_TOKEN: '1', A_API_KEY: '2', PATH: '/bin', C_SECRET: '3' };
    expect(withheldNames(env, ['C_SECRET'])).toEqual(['A_API_KEY', 'B_TOKEN']);
  });
});
