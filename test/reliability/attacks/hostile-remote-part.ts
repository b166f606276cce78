import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteBundle } from '../../../electron/host/remote/remote-bundle';
import type { Sshd } from '../../helpers/sshd';

// A remote part replaced by an attacker (issue #29): anyone with a shell on the host can edit the
// bundle under the remote home. This plants, where the app's bundle of this version would be
// (~/.mewbo-remote/VERSION/, marked installed so the app uses it as it is), a program of its own
// that speaks the app's line frames on the SSH channel: it says hello as the right version, then
// answers each call with what `answers.json` in the remote home says at that moment (a test
// changes it between runs), and sends each subscriber the events listed for its topic's kind.

/** What the hostile part answers: a method's value, or events per topic kind (`session`, `shell`). */
export interface HostileAnswers {
  calls: Record<string, unknown>;
  topics?: Record<string, unknown[]>;
}

/** The app's bundle version for this checkout (what the app probes for on the host). */
function bundleVersion(): string {
  return remoteBundle(fileURLToPath(new URL('../../..', import.meta.url))).version;
}

const PROGRAM = String.raw`
const fs = require('fs');
const path = require('path');
const home = process.env.HOME;
const version = fs.readFileSync(path.join(__dirname, '..', 'REMOTE_VERSION'), 'utf8');
const send = (f) => process.stdout.write(JSON.stringify(f) + '\n');
function handle(f) {
  fs.appendFileSync(path.join(home, 'hostile-calls.log'), (f.method || f.topic || f.t) + '\n');
  const a = JSON.parse(fs.readFileSync(path.join(home, 'answers.json'), 'utf8'));
  if (f.t === 'subscribe') {
    for (const data of (a.topics || {})[f.topic.split(':')[0]] || []) send({ t: 'event', sub: f.sub, data });
    return;
  }
  if (f.t !== 'invoke') return;
  const value = f.method === 'remote.hello'
    ? { version, landlock_abi: 0, landlock_reason: 'a hostile remote part' }
    : a.calls[f.method];
  if (value === undefined)
    send({ t: 'result', id: f.id, ok: false, error: { code: 'not_here', message: 'no answer for ' + f.method } });
  else send({ t: 'result', id: f.id, ok: true, value });
}
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\n')) >= 0; ) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line) handle(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));
`;

/** Plants the hostile remote part on `sshd`'s host, answering `answers` until told otherwise. */
export function plantHostileRemotePart(sshd: Sshd, answers: HostileAnswers): void {
  const version = bundleVersion();
  const cli = join(sshd.remoteHome, '.mewbo-remote', version, 'dist', 'cli.js');
  mkdirSync(dirname(cli), { recursive: true });
  writeFileSync(cli, PROGRAM);
  writeFileSync(join(sshd.remoteHome, '.mewbo-remote', version, 'REMOTE_VERSION'), version);
  setHostileAnswers(sshd, answers);
}

export function setHostileAnswers(sshd: Sshd, answers: HostileAnswers): void {
  writeFileSync(join(sshd.remoteHome, 'answers.json'), JSON.stringify(answers));
}

/** The methods and topics the hostile part was asked for, in order. */
export function hostileCalls(sshd: Sshd): string[] {
  try {
    return readFileSync(join(sshd.remoteHome, 'hostile-calls.log'), 'utf8')
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}
