import { test as agentTest } from './agent-fixtures';
import { startSshd, type Sshd, type SshdOptions } from '../helpers/sshd';

// The e2e specs of projects on SSH hosts (issue #29): the agent fixtures plus a real sshd on
// 127.0.0.1 (test/helpers/sshd.ts) that `mewbo serve` reaches through its own ssh config, in
// auto mode unless a spec's config says otherwise.

export const test = agentTest.extend<{ sshd: Sshd; sshdOptions: SshdOptions }>({
  sshdOptions: [{}, { option: true }],
  sshd: async ({ sshdOptions }, use) => {
    const sshd = await startSshd(sshdOptions);
    await use(sshd);
    await sshd.stop();
  },
  config: async ({ sshd }, use) =>
    use({ remote: { ssh_config: sshd.clientConfig }, permission_mode: 'auto' }),
});

export { expect } from './agent-fixtures';
