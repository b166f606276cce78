import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { abi, attackWorld, type AttackWorld } from './attack-world';

// Route 8: credentials in the host's environment do not reach shells unless the user allows a
// name (agent.shell_env_allow). The attack prints the environment, and the launcher's.

const SECRETS: Record<string, string> = {
  GITHUB_TOKEN: 'ghp_secret1',
  GH_TOKEN: 'gho_secret2',
  AWS_SECRET_ACCESS_KEY: 'aws_secret3',
  AWS_ACCESS_KEY_ID: 'AKIA_secret4',
  STRIPE_API_KEY: 'sk_live_secret5',
  DATABASE_PASSWORD: 'pw_secret6',
  SLACK_BOT_TOKEN: 'xoxb_secret7',
  ANTHROPIC_API_KEY: 'sk-ant-secret8',
  OPENAI_API_KEY: 'sk-secret9',
  SENTRY_CLIENT_SECRET: 'sentry_secret10',
};
const ALLOWED = { NPM_TOKEN: 'npm_allowed_value' };
const hostEnv = { ...process.env, ...SECRETS, ...ALLOWED, HARMLESS_SETTING: 'visible' };
const attack = 'env; tr "\\0" "\\n" < /proc/$PPID/environ 2>&1; echo end';

let w: AttackWorld | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe.runIf(abi > 0)('route 8: secrets in the environment', () => {
  test('unprotected: a shell given the host environment prints every credential', () => {
    const out = spawnSync('/bin/sh', ['-c', attack], { env: hostEnv, encoding: 'utf8' }).stdout;
    for (const value of Object.values(SECRETS)) expect(out).toContain(value);
  });

  for (const tty of [false, true]) {
    test(`protected (${tty ? 'PTY' : 'pipes'}): no credential reaches the shell or its launcher; an allowed name and the rest do`, async () => {
      w = attackWorld({ shell_env_allow: ['NPM_TOKEN'] }, { env: hostEnv });
      const out = await w.run(attack, { tty });
      expect(out).toContain('end');
      expect(out).toContain('HARMLESS_SETTING=visible');
      expect(out).toContain('NPM_TOKEN=npm_allowed_value');
      for (const value of Object.values(SECRETS)) expect(out).not.toContain(value);
      expect(w.service.withheldEnv()).toEqual({
        withheld: expect.arrayContaining(Object.keys(SECRETS)),
        allowed: ['NPM_TOKEN'],
      });
      expect(w.service.withheldEnv().withheld).not.toContain('NPM_TOKEN');
    });
  }
});
