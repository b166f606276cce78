import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseSshUrl, sshDestinationArgs } from '../../../electron/host/remote/ssh-url';
import { tempDir } from '../../helpers/temp';

// A remote project URL whose host is an ssh option (issue #29 part 1): with the host as a bare
// word of the ssh command line, `ssh://-oProxyCommand=touch%20pwned/srv` makes the real ssh run
// a command on this machine before connecting anywhere. The attack runs for real against the
// unprotected path first (the platform's URL parser, host passed as is), then through ours.

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const HOSTILE = 'ssh://-oProxyCommand=touch%20pwned/srv';

/** Runs the real ssh in `dir` with no user config, as a remote part's transport would. */
function ssh(dir: string, words: string[]): void {
  spawnSync('ssh', ['-F', '/dev/null', '-o', 'BatchMode=yes', ...words, 'true'], {
    cwd: dir,
    stdio: 'ignore',
    timeout: 30_000,
  });
}

function scratch(): string {
  const t = tempDir('mewbo-ssh-url-');
  cleanup = t.cleanup;
  return t.dir;
}

describe('attack: an ssh:// URL whose host is an ssh option', () => {
  it('control: the host taken as is from the URL runs the attacker’s command', () => {
    const dir = scratch();
    const host = decodeURIComponent(new URL(HOSTILE).hostname);
    ssh(dir, [host]);
    expect(existsSync(join(dir, 'pwned'))).toBe(true);
  });

  it('the parser refuses the URL, naming the host as an ssh option', () => {
    expect(() => parseSshUrl(HOSTILE)).toThrow(
      /host '-oProxyCommand=touch%20pwned' starts with '-', which ssh would read as an option/,
    );
    expect(() => parseSshUrl('ssh://-oProxyCommand=sh@box/srv')).toThrow(/starts with '-'/);
  });

  it('a host that got past the parser still lands after --, where ssh reads it as a name', () => {
    const dir = scratch();
    const host = decodeURIComponent(new URL(HOSTILE).hostname);
    ssh(dir, sshDestinationArgs({ host, path: '/srv' }));
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});
