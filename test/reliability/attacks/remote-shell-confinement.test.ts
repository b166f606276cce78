import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import type { RemoteHost } from '../../../electron/host/remote/remote-host';
import type { SshTransport } from '../../../electron/host/remote/ssh-transport';
import { openAttackHost, type AttackHost } from './remote-attack-host';
import { startSshd, type Sshd } from '../../helpers/sshd';
import { tempDir } from '../../helpers/temp';

// Attack (issue #29 part 3/4): a shell the agent runs on an SSH host tries to read the remote
// part's folder (~/.mewbo-remote: the bundle, the daemon's token) and the desktop's $MEWBO_HOME
// (on a host that sees it: the same machine here), and to drive the remote part's daemon over its
// Unix socket, which Landlock does not guard. Each is first done by an unconfined process on the
// same host (an ssh command), so the test cannot pass because the thing is simply not there.

let sshd: Sshd;
let host: AttackHost;
let ssh: SshTransport;
let remote: RemoteHost;
const appHome = tempDir('mewbo-attack-app-home-');
const project = () => join(sshd.dir, 'attack-project');

beforeAll(async () => {
  sshd = await startSshd();
  mkdirSync(join(appHome.dir, 'configs'), { recursive: true });
  writeFileSync(join(appHome.dir, 'configs', 'secrets.json'), 'desktop-secret');
  mkdirSync(project());
  host = await openAttackHost(sshd, appHome.dir);
  ({ remote, ssh } = host);
}, 120_000);
afterAll(async () => {
  await host?.dispose();
  await sshd?.stop();
  appHome.cleanup();
});

/** The same command, unconfined (a plain ssh command on the host) and in the agent's shell there. */
async function both(command: string) {
  const unconfined = await ssh.exec(command);
  return {
    unconfined: { code: unconfined.code, out: unconfined.stdout.toString() },
    confined: await host.confined('s_attack1', project(), command),
  };
}

describe('a confined shell on an SSH host', () => {
  it("cannot read the remote part's folder: its bundle and its daemon's token", async () => {
    const runDir = join(sshd.remoteHome, '.mewbo-remote', 'home', 'run');
    const token = readdirSync(runDir).find((n) => n.endsWith('.token'))!;
    const version = remote.hello.version;
    const r = await both(
      `cat "$HOME/.mewbo-remote/${version}/REMOTE_VERSION" && echo && cat "$HOME/.mewbo-remote/home/run/${token}"`,
    );
    expect(r.unconfined.code).toBe(0);
    expect(r.unconfined.out).toContain(version);
    expect(r.unconfined.out).toMatch(/[0-9a-f]{64}/);
    expect(r.confined.code).not.toBe(0);
    // (cat's complaint names the path, which holds the version: only a line of it alone is a read.)
    expect(r.confined.out.split('\n')).not.toContain(version);
    expect(r.confined.out).toMatch(/Permission denied/);
    expect(r.confined.out).not.toMatch(/[0-9a-f]{64}/);
  });

  it("cannot read the desktop's $MEWBO_HOME, and is never told where it is", async () => {
    const r = await both(
      `cat "${appHome.dir}/configs/secrets.json"; echo; echo "env:$(env | grep -c -e "${appHome.dir}" -e '^MEWBO_HOME=')"`,
    );
    expect(r.unconfined.out).toContain('desktop-secret');
    expect(r.confined.out).not.toContain('desktop-secret');
    expect(r.confined.out).toMatch(/Permission denied/);
    // The path is denied by name on the remote part's command line, never put in a shell's env.
    expect(r.confined.out).toContain('env:0');
  });

  it("cannot drive the remote part's daemon over its socket without the token it cannot read", async () => {
    const runDir = '$HOME/.mewbo-remote/home/run';
    const hello = '{"t":"invoke","id":1,"method":"remote.hello","params":{}}';
    // Connects to the socket, sends TOKEN (the file's, when it can be read) and a hello.
    const probe = (token: string) =>
      `cd ${runDir} 2>/dev/null; node -e '
        const s = require("net").createConnection(process.argv[1]);
        let got = "";
        s.on("connect", () => s.write(process.argv[2] + "\\n" + process.argv[3] + "\\n"));
        s.on("data", (d) => (got += d));
        s.on("error", (e) => { console.log("error " + e.code); process.exit(0); });
        s.on("close", () => { console.log(got || "closed"); process.exit(0); });
        setTimeout(() => { console.log(got || "nothing"); process.exit(0); }, 5000);
      ' "$(ls ${runDir}/*.sock 2>/dev/null || echo ${sshd.remoteHome}/.mewbo-remote/home/run/part-${remote.hello.version}.sock)" "${token}" '${hello}'`;
    const withToken = await ssh.exec(probe(`$(cat ${runDir}/*.token)`));
    expect(withToken.stdout.toString()).toContain('"ok":true');
    const r = await both(probe('0'.repeat(64)));
    expect(r.confined.out).not.toContain('"ok":true');
    const read = await both(probe(`$(cat ${runDir}/*.token 2>/dev/null)`));
    expect(read.unconfined.out).toContain('"ok":true');
    expect(read.confined.out).not.toContain('"ok":true');
  });

  it('gives a process on the desktop nothing through a socket forwarded to the daemon without its token', async () => {
    // The app links through such a socket (forwarded-link.ts); any process of the desktop's user
    // that finds one can connect. The daemon's token is all that stands between it and the tools.
    const runDir = `${sshd.remoteHome}/.mewbo-remote/home/run`;
    const local = await ssh.forwardSocket(`${runDir}/part-${remote.hello.version}.sock`);
    const hello = '{"t":"invoke","id":1,"method":"remote.hello","params":{}}';
    const probe = (token: string) =>
      new Promise<string>((resolve) => {
        const s = createConnection(local);
        let got = '';
        const done = () => resolve(got || 'nothing');
        s.on('connect', () => s.write(`${token}\n${hello}\n`));
        s.on('data', (d) => (got += d.toString()));
        s.on('error', (e) => resolve(`error ${String(e)}`));
        s.on('close', done);
        setTimeout(() => {
          s.destroy();
          done();
        }, 5000);
      });
    // With the token (read by an unconfined ssh command), the forwarded socket drives the daemon.
    const token = (await ssh.exec(`cat ${runDir}/part-${remote.hello.version}.token`)).stdout
      .toString()
      .trim();
    expect(await probe(token)).toContain('"ok":true');
    // Without it, nothing answers.
    for (const guess of ['0'.repeat(64), '', token.slice(0, -1)])
      expect(await probe(guess)).not.toContain('"ok":true');
  });
});
