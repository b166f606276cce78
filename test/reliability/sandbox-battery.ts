import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseConfig } from '../../electron/host/config/load-config';
import { homePaths } from '../../electron/host/config/paths';
import type { AppConfig } from '../../electron/host/config/schema';
import { encodeRules } from '../../electron/host/sandbox/grant-plan';
import { findInstallRoot, findLauncher } from '../../electron/host/sandbox/launcher';
import { ShellService } from '../../electron/host/shells/shell-service';

// The escape battery's world: an active project, another configured project holding a secret,
// the app's config directory holding a key, a directory outside every project and temp dir
// (for the write scope), and a shell service confining the active project's shells.

export interface Battery {
  root: string;
  other: string;
  configDir: string;
  outside: string;
  secret: string;
  key: string;
  /** A copy of the launcher inside the project, and a rules file granting everything. */
  launcherCopy: string;
  wideRules: () => string;
  /** fd the host itself holds open on the other project's secret. */
  hostFd: number;
  run(command: string): Promise<string>;
  dispose(): Promise<void>;
}

export function makeBattery(agent: Record<string, unknown> = {}): Battery {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mewbo-escape-')));
  // Outside of every temp directory, so the project write scope does not cover it.
  const outside = realpathSync(mkdtempSync(join(homedir(), '.mewbo-escape-outside-')));
  const root = join(base, 'project');
  const other = join(base, 'other');
  const home = join(base, 'home');
  const configDir = join(home, 'configs');
  for (const d of [root, other, configDir]) mkdirSync(d, { recursive: true });
  const secret = `OTHER-SECRET-${randomBytes(6).toString('hex')}`;
  const key = `sk-CONFIG-KEY-${randomBytes(6).toString('hex')}`;
  writeFileSync(join(other, 'secret.txt'), `${secret}\n`);
  mkdirSync(join(other, 'nested', 'deeper'), { recursive: true });
  writeFileSync(join(other, 'nested', 'deeper', 'also.txt'), `${secret}\n`);
  writeFileSync(
    join(configDir, 'app.json'),
    JSON.stringify({ providers: { anthropic: { api_key: key } } }),
  );
  writeFileSync(join(outside, 'existing.txt'), 'original\n');
  writeFileSync(join(root, 'mine.txt'), 'mine\n');
  const launcher = findLauncher(findInstallRoot(process.cwd()));
  if (!launcher) throw new Error('launcher not built');
  const launcherCopy = join(root, 'launcher-copy');
  copyFileSync(launcher, launcherCopy);
  let rulesN = 0;
  const wideRules = () => {
    const file = join(root, `wide-rules-${rulesN++}`);
    writeFileSync(file, encodeRules([{ path: '/', rights: 0xffffffff }]));
    return file;
  };
  const hostFd = openSync(join(other, 'secret.txt'), 'r');
  const config: AppConfig = parseConfig({
    projects: { project: { path: root }, other: { path: other } },
    agent,
  });
  const service = new ShellService({
    paths: homePaths({ MEWBO_HOME: home }),
    config: () => config,
    log: () => {},
  });
  const manager = service.forSession('s_escape01');
  return {
    root,
    other,
    configDir,
    outside,
    secret,
    key,
    launcherCopy,
    wideRules,
    hostFd,
    async run(command) {
      const r = await manager.run({
        command,
        cwd: root,
        root,
        config,
        tty: false,
        timeoutMs: 30_000,
      });
      if ('kind' in r) throw new Error(`spawn refused: ${r.message}`);
      return r.result.text;
    },
    async dispose() {
      closeSync(hostFd);
      await service.dispose();
      rmSync(base, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}

/** A snapshot of a tree's names and contents, to prove nothing in it changed. */
export function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out.push(`${p}/`);
        walk(p);
      } else {
        out.push(`${p}=${e.isFile() ? readFileSync(p, 'utf8') : 'special'}`);
      }
    }
  };
  walk(dir);
  return out.join('\n');
}

/** This machine's block devices, listed by the host (a sandboxed shell cannot list /dev). */
function blockDevices(): string[] {
  return readdirSync('/dev', { withFileTypes: true })
    .filter((e) => e.isBlockDevice())
    .map((e) => join('/dev', e.name));
}

/** Reads that must fail: each is a way a command could reach a denied file's bytes. */
export function readAttempts(b: Battery): [string, string][] {
  const s = join(b.other, 'secret.txt');
  const app = join(b.configDir, 'app.json');
  const rel = `../${b.other.split('/').pop()}/secret.txt`;
  return [
    ['cat', `cat ${s}`],
    ['grep -r on the project', `grep -r OTHER-SECRET ${b.other}`],
    ['grep -r from the common parent', `grep -r -a OTHER-SECRET ${join(b.root, '..')}`],
    ['python open', `python3 -c "print(open('${s}').read())"`],
    ['node readFileSync', `node -e "console.log(require('fs').readFileSync('${s}','utf8'))"`],
    ['perl open', `perl -e 'open(F, "<", "${s}") or die; print <F>'`],
    ['dd', `dd if=${s} status=none`],
    ['find -exec cat', `find ${b.other} -type f -exec cat {} +`],
    ['tar the directory', `tar cf - -C ${b.other} . | tar xOf -`],
    ['symlink to the file', `ln -s ${s} link1 && cat link1`],
    [
      'symlink to the directory',
      `ln -s ${b.other} link2 && cat link2/secret.txt link2/nested/deeper/also.txt`,
    ],
    ['/proc/self/root', `cat /proc/self/root${s}`],
    ['/proc/<launcher>/root', `cat /proc/$PPID/root${s}`],
    ['/proc/<host>/root', `cat /proc/${process.pid}/root${s}`],
    ["/proc/<host>/fd of the host's open file", `cat /proc/${process.pid}/fd/${b.hostFd}`],
    [
      'inherited file descriptors',
      'for fd in $(seq 3 64); do cat /proc/self/fd/$fd 2>/dev/null; done',
    ],
    ['hard link into the project', `ln ${s} hard && cat hard`],
    ['rename the file into the project', `mv ${s} moved.txt; cat moved.txt`],
    ['rename the directory into the project', `mv ${b.other} otherdir; cat otherdir/secret.txt`],
    [
      'relative walk',
      `cat ${rel} ./../${rel.slice(3)} ../../${b.other.split('/').slice(-2).join('/')}/secret.txt`,
    ],
    ['config dir: the key', `cat ${app}`],
    ['config dir: copy it out', `cp -r ${b.configDir} cfgcopy && cat cfgcopy/app.json`],
    ['new user namespace', `unshare -Ur cat ${s}`],
    [
      'new user + mount namespace bind mount',
      `mkdir -p mnt && unshare -Urm sh -c 'mount --bind ${b.other} mnt && cat mnt/secret.txt'`,
    ],
    [
      'new namespaces, propagation unchanged, bind mount',
      `mkdir -p mnt3 && unshare -Urm --propagation unchanged sh -c 'mount --bind ${b.other} mnt3 && cat mnt3/secret.txt'`,
    ],
    [
      'new mount namespace (root) bind mount',
      `mkdir -p mnt2 && unshare -m sh -c 'mount --bind ${b.other} mnt2 && cat mnt2/secret.txt'`,
    ],
    [
      'mount a tmpfs over the project then bind',
      `unshare -Urm sh -c 'mount -t tmpfs none ${b.root} && cat ${s}'`,
    ],
    ["enter init's mount namespace", `nsenter -t 1 -m cat ${s}`],
    ['chroot to /', `chroot / cat ${s}`],
    [
      'a child applying a wider ruleset',
      `${b.launcherCopy} --rules-fd 3 -- cat ${s} ${app} 3< ${b.wideRules()}`,
    ],
    ['kill the supervisor, then read', `kill -9 $PPID; sleep 0.2; cat ${s}`],
    [
      'mknod a raw disk and read it',
      `mknod blk b 254 0 && head -c 65536 blk | grep -a -c . && echo RAW-DEVICE-OPENED`,
    ],
    [
      'read a raw disk device',
      `for d in ${blockDevices().join(' ')}; do head -c 512 "$d" >/dev/null && echo "RAW-DEVICE-OPENED $d"; done; true`,
    ],
  ];
}

/** Writes that must fail, against the other project and the config directory. */
export function writeAttempts(b: Battery): [string, string][] {
  const s = join(b.other, 'secret.txt');
  const app = join(b.configDir, 'app.json');
  return [
    ['create a file', `echo x > ${b.other}/new.txt`],
    ['append', `echo x >> ${s}`],
    ['truncate', `truncate -s 0 ${s}; : > ${app}`],
    ['delete', `rm -f ${s} ${app}`],
    ['rename inside', `mv ${s} ${b.other}/renamed.txt`],
    ['mkdir', `mkdir ${b.other}/newdir ${b.configDir}/newdir`],
    ['symlink inside', `ln -s / ${b.other}/rootlink`],
    ['copy in', `cp mine.txt ${b.other}/ && cp mine.txt ${b.configDir}/`],
    ['python write', `python3 -c "open('${app}','w').write('{}')"`],
    ['node write', `node -e "require('fs').writeFileSync('${b.other}/n.txt','x')"`],
    ['through a project symlink', `ln -s ${b.other} wl && echo x > wl/via-link.txt`],
    ['through /proc/self/root', `echo x > /proc/self/root${b.other}/proc.txt`],
    ['sed -i', `sed -i s/SECRET/CHANGED/ ${s}`],
    [
      'a child applying a wider ruleset',
      `${b.launcherCopy} --rules-fd 3 -- sh -c 'echo x > ${b.other}/wide.txt; echo {} > ${app}' 3< ${b.wideRules()}`,
    ],
    [
      'bind mount in a new namespace',
      `mkdir -p wm && unshare -Urm sh -c 'mount --bind ${b.other} wm && echo x > wm/ns.txt'`,
    ],
  ];
}

/** Writes that must fail under the project write scope: outside the project and temp dirs. */
export function outsideWriteAttempts(b: Battery, etcProbe: string): [string, string][] {
  const o = b.outside;
  return [
    ['create a file', `echo x > ${o}/new.txt`],
    ['overwrite', `echo x > ${o}/existing.txt`],
    ['append', `echo x >> ${o}/existing.txt`],
    ['truncate', `truncate -s 0 ${o}/existing.txt`],
    ['delete', `rm -f ${o}/existing.txt`],
    ['rename', `mv ${o}/existing.txt ${o}/moved.txt`],
    ['mkdir', `mkdir ${o}/dir`],
    ['move a project file out', `mv mine.txt ${o}/`],
    ['hard link out', `ln mine.txt ${o}/hard.txt`],
    ['symlink out', `ln -s ${b.root} ${o}/link`],
    ['tee', `echo x | tee ${o}/tee.txt`],
    ['dd of=', `echo x | dd of=${o}/dd.txt status=none`],
    ['python write', `python3 -c "open('${o}/py.txt','w').write('x')"`],
    ['node write', `node -e "require('fs').writeFileSync('${o}/node.txt','x')"`],
    ['sed -i', `sed -i s/original/changed/ ${o}/existing.txt`],
    ['through a project symlink', `ln -s ${o} out-link && echo x > out-link/via.txt`],
    ['through /proc/self/root', `echo x > /proc/self/root${o}/proc.txt`],
    ['a system directory', `touch ${etcProbe}`],
    [
      'a child applying a wider ruleset',
      `${b.launcherCopy} --rules-fd 3 -- sh -c 'echo x > ${o}/wide.txt; touch ${etcProbe}' 3< ${b.wideRules()}`,
    ],
    [
      'bind mount in a new namespace',
      `mkdir -p om && unshare -Urm sh -c 'mount --bind ${o} om && echo x > om/ns.txt'`,
    ],
    ['new user namespace', `unshare -Ur sh -c 'echo x > ${o}/userns.txt'`],
    ['kill the supervisor, then write', `kill -9 $PPID; sleep 0.2; echo x > ${o}/after-kill.txt`],
    ['rename the project dir out', `mv ${b.root}/sub ${o}/sub 2>&1; mkdir -p sub; mv sub ${o}/sub`],
    ['copy with cp -r', `mkdir -p tree && echo x > tree/f && cp -r tree ${o}/tree`],
    ['git init outside', `git init -q ${o}/repo`],
  ];
}
