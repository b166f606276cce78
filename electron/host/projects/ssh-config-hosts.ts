import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isSshHostName } from '../remote/ssh-url';

// The aliases the "Connect to host..." dialog offers: the `Host` names of the user's
// ~/.ssh/config. Patterns (`*`, `?`, `!negated`) name no one host, so they are left out, as is
// any name an ssh:// URL could not carry. `Include`d files are not followed: the offer is a
// convenience, and any alias still works typed by hand (ssh itself reads the whole config).

/** The concrete host names of an ssh_config text, in order, each once. */
export function sshConfigHosts(text: string): string[] {
  const hosts = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^host(?:\s*=\s*|\s+)(.*)$/i.exec(line);
    if (!m) continue;
    for (const word of m[1]!.split(/\s+/)) {
      const name = word.replace(/^"(.*)"$/, '$1');
      if (name && !/[*?!]/.test(name) && isSshHostName(name)) hosts.add(name);
    }
  }
  return [...hosts];
}

/** The aliases of ~/.ssh/config (none when it does not exist or cannot be read). */
export async function userSshHosts(home = homedir()): Promise<string[]> {
  const text = await readFile(join(home, '.ssh', 'config'), 'utf8').catch(() => '');
  return sshConfigHosts(text);
}
