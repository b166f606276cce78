import type { Socket } from 'node:net';
import type { PermissionMode } from '../config/schema';
import type { SessionProcesses, SessionShellNetwork, SpawnNetwork } from '../shells/shell-network';
import type { LoadedRule } from '../rules/permission-rules';
import { processesWithToken, tokenOf } from '../shells/process-tree';
import type { AddressKind } from './address-kind';
import { ASK_TIMEOUT_MS } from './constants';
import { EgressProxy, type Admission } from './egress-proxy';
import { hostKey, normalizeHost, type Host } from './host-name';
import { listenersOf, socketInodesOf, tcpTable, type TcpEntry } from './local-sockets';
import {
  decideAddress,
  decideName,
  howToAllow,
  type AllowEntry,
  type NameVerdict,
} from './network-policy';
import { proxyEnv } from './proxy-env';
import type { Target } from './proxy-target';
import type { Resolver } from './resolver';

// One session's network: its own proxy listener (so the port a connection arrives on says whose
// it is, and nothing the client sends does), the policy facts read fresh for each connection (a
// rule added by an approval applies to the next one), the approval asked when the policy says
// ask (one card for every connection to the same destination that waits at the same time), the
// loopback ports its processes may reach, and which of its shells a refusal is reported to.

/** What the policy reads, per connection. */
export interface PolicyFacts {
  rules: readonly LoadedRule[];
  allowList: readonly AllowEntry[];
  mode: PermissionMode;
  canAsk: boolean;
  /** NameFacts.unlisted: a server's proxy says its own allowlist. */
  unlisted?: (host: Host) => string;
}

/** A connection waiting for the user. */
export interface NetworkAsk {
  host: Host;
  port: number;
  /** The shell whose process asked, when it could be told. */
  shellId: string | null;
}

export type AskAnswer = { allow: true } | { allow: false; reason: string };

export interface SessionNetworkOptions {
  /** The session's processes: their token prefix, and whether a shell of theirs runs. */
  processes: SessionProcesses;
  /** The policy's inputs for the session's project (or scratch directory), read per connection. */
  facts(root: string): Promise<PolicyFacts>;
  /** sandbox.network.confine: false leaves the network of new processes open. */
  confine(): boolean;
  /** sandbox.network.local_ports: loopback ports the user lets confined processes reach. */
  localPorts(): readonly number[];
  /** Puts the destination to the user; absent where nobody can be asked. */
  ask?(request: NetworkAsk, signal: AbortSignal): Promise<AskAnswer>;
  /** A refused connection, told to the shell that made it (null: it could not be told which). */
  refused(shellId: string | null, reason: string): void;
  resolver: Resolver;
  addressKind: (address: string) => AddressKind;
  /** Longest a connection waits for a decision. */
  askTimeoutMs?: number;
}

/** An ask shared by the connections waiting on it; it ends (denied) when the last one leaves. */
interface SharedAsk {
  answer: Promise<AskAnswer>;
  waiters: number;
  abort: AbortController;
}

export class SessionNetwork implements SessionShellNetwork {
  private proxy: Promise<EgressProxy> | null = null;
  /** The root the session's latest process was spawned for: whose allowlist applies. */
  private root: string | null = null;
  private readonly asks = new Map<string, SharedAsk>();
  private disposed = false;

  constructor(private readonly opts: SessionNetworkOptions) {}

  /** The session's proxy port, listening from the first call on. */
  async port(): Promise<number> {
    if (this.disposed) throw new Error('the session network is disposed');
    this.proxy ??= EgressProxy.listen({ decide: (t, c, s) => this.decide(t, c, s) });
    return (await this.proxy).port;
  }

  /**
   * What a process spawned now for `root` gets: the loopback ports it may connect to directly
   * (the proxy, the ports this session's processes listen on now, and the user's local_ports;
   * never one the app listens on), and its proxy's port for the environment.
   */
  async forSpawn(root: string): Promise<(SpawnNetwork & { proxyPort: number }) | undefined> {
    if (!this.opts.confine()) return undefined;
    this.root = root;
    const proxy = await this.port();
    const spawned = (connectPorts: number[]) => ({
      proxyPort: proxy,
      grant: { connectPorts },
      env: proxyEnv(proxy),
    });
    // Reading the socket table and every process's environment is most of what confinement adds
    // to a shell's start: done only when there is something to find or to exclude.
    const running = this.opts.processes.running();
    const listed = this.opts.localPorts();
    if (!running && listed.length === 0) return spawned([proxy]);
    const table = tcpTable();
    const app = new Set(listenersOf(['self'], table).map((e) => e.local.port));
    const own = running ? this.sessionListeners(table).map((e) => e.local.port) : [];
    return spawned(
      [...new Set([proxy, ...own, ...listed])].filter((p) => p === proxy || !app.has(p)),
    );
  }

  /** Connections waiting for the user's decision now. */
  get waiting(): number {
    let n = 0;
    for (const shared of this.asks.values()) n += shared.waiters;
    return n;
  }

  private sessionListeners(table: readonly TcpEntry[]): TcpEntry[] {
    return listenersOf(processesWithToken(this.opts.processes.tokenPrefix), table);
  }

  private async decide(target: Target, client: Socket, signal: AbortSignal): Promise<Admission> {
    if (this.root === null)
      return {
        ok: false,
        status: 403,
        message: 'mewbo proxy: no process of this session was started yet',
      };
    const facts = await this.opts.facts(this.root);
    const refuse = (reason: string): Admission => {
      this.opts.refused(this.shellOf(client), reason);
      return { ok: false, status: 403, message: reason };
    };
    let verdict: NameVerdict = decideName({
      ...target,
      ...facts,
      addressKind: this.opts.addressKind,
    });
    if (verdict.kind === 'ask') {
      const answer = await this.askShared(target, client, signal);
      verdict = answer.allow
        ? { kind: 'allow', by: 'the user' }
        : {
            kind: 'refuse',
            reason: `connection to ${hostKey(target.host)}:${target.port} refused: ${answer.reason}. ${howToAllow(target.host)}`,
          };
    }
    if (verdict.kind === 'refuse') return refuse(verdict.reason);
    if (verdict.kind === 'local') return this.local(target, null, refuse);
    let addresses: string[];
    if (target.host.kind === 'ip') addresses = [target.host.address];
    else {
      try {
        addresses = await this.opts.resolver.lookup(target.host.name);
      } catch (err) {
        return {
          ok: false,
          status: 502,
          message: `mewbo proxy: could not resolve ${target.host.name}: ${(err as Error).message}`,
        };
      }
    }
    let first: string | null = null;
    for (const raw of addresses) {
      const n = normalizeHost(raw.includes(':') ? `[${raw}]` : raw);
      if (n?.kind !== 'ip') continue;
      const address = n.address;
      const kind = this.opts.addressKind(address);
      const v = decideAddress({ ...target, address, kind, ...facts });
      if (v.kind === 'connect') return { ok: true, address };
      if (v.kind === 'local') return this.local(target, address, refuse);
      first ??= v.reason;
    }
    return refuse(
      first ??
        `connection to ${hostKey(target.host)}:${target.port} refused: it resolves to no address`,
    );
  }

  /**
   * A loopback destination: a port this session's processes listen on, or one the user listed,
   * and never one of the app's own (web host, pairing, every session's proxy, MCP over HTTP).
   */
  private local(
    target: Target,
    address: string | null,
    refuse: (reason: string) => Admission,
  ): Admission {
    const shown = `${hostKey(target.host)}:${target.port}`;
    const table = tcpTable();
    if (listenersOf(['self'], table).some((e) => e.local.port === target.port))
      return refuse(
        `connection to ${shown} refused: that port is one of the app's own listeners, which confined processes never reach.`,
      );
    const own = this.sessionListeners(table).find((e) => e.local.port === target.port);
    if (own) return { ok: true, address: address ?? loopbackFor(own.local.address) };
    if (this.opts.localPorts().includes(target.port))
      return { ok: true, address: address ?? '127.0.0.1' };
    return refuse(
      `connection to ${shown} refused: no process of this session listens on port ${target.port}, and it is not in sandbox.network.local_ports (configs/app.json).`,
    );
  }

  private askShared(target: Target, client: Socket, signal: AbortSignal): Promise<AskAnswer> {
    const ask = this.opts.ask;
    if (!ask) return Promise.resolve({ allow: false, reason: 'nobody can be asked here' });
    const key = `${hostKey(target.host)}:${target.port}`;
    let shared = this.asks.get(key);
    if (!shared) {
      const abort = new AbortController();
      const timeout = this.opts.askTimeoutMs ?? ASK_TIMEOUT_MS;
      const timer = setTimeout(
        () => abort.abort(new Error(`nobody decided within ${Math.round(timeout / 1000)} s`)),
        timeout,
      );
      const created: SharedAsk = {
        waiters: 0,
        abort,
        answer: ask({ ...target, shellId: this.shellOf(client) }, abort.signal)
          .catch((err: unknown): AskAnswer => ({ allow: false, reason: (err as Error).message }))
          .finally(() => {
            clearTimeout(timer);
            if (this.asks.get(key) === created) this.asks.delete(key);
          }),
      };
      shared = created;
      this.asks.set(key, shared);
    }
    const mine = shared;
    mine.waiters++;
    return new Promise<AskAnswer>((resolve) => {
      const leave = () => {
        mine.waiters--;
        if (mine.waiters === 0)
          mine.abort.abort(new Error('the connection closed before anyone decided'));
        resolve({ allow: false, reason: 'the connection closed before anyone decided' });
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      void mine.answer.then((answer) => {
        signal.removeEventListener('abort', leave);
        resolve(answer);
      });
    });
  }

  /**
   * Which of this session's shells owns the client end of a connection to the proxy: the socket
   * is found in the kernel's table by its two ports, then among the session's processes' sockets.
   */
  private shellOf(client: Socket): string | null {
    const table = tcpTable();
    const entry = table.find(
      (e) =>
        e.local.port === client.remotePort && e.remote.port === client.localPort && e.inode > 0,
    );
    if (!entry) return null;
    for (const pid of processesWithToken(this.opts.processes.tokenPrefix)) {
      if (!socketInodesOf(pid).has(entry.inode)) continue;
      const token = tokenOf(pid);
      if (!token) continue;
      // A token is `<manager prefix><shell id>.`.
      return token.slice(this.opts.processes.tokenPrefix.length).replace(/\.$/, '') || null;
    }
    return null;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const shared of this.asks.values()) shared.abort.abort(new Error('the session closed'));
    const proxy = this.proxy;
    this.proxy = null;
    if (proxy) await (await proxy).dispose();
  }
}

/** The address that reaches a listener bound to `bound` (the unspecified address: loopback). */
function loopbackFor(bound: string): string {
  if (bound === '0.0.0.0') return '127.0.0.1';
  if (bound === '::') return '::1';
  return bound;
}
