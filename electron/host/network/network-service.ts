import type { AppConfig, PermissionMode } from '../config/schema';
import { rulesFromSource, type LoadedRule } from '../rules/permission-rules';
import { readSettingsSources } from '../rules/settings-sources';
import type { NetworkGrant } from '../sandbox/sandbox';
import type { SessionProcesses, ShellNetwork } from '../shells/shell-network';
import { addressClassifier, type AddressKind } from './address-kind';
import { configAllowList } from './config-allowlist';
import type { AllowEntry } from './network-policy';
import { systemResolver, type Resolver } from './resolver';
import {
  SessionNetwork,
  type AskAnswer,
  type NetworkAsk,
  type PolicyFacts,
} from './session-network';

// The network side of the shells: one SessionNetwork (proxy listener and policy) per session,
// made by the shell service next to the session's shells and disposed with them. The policy's
// inputs come from here: the allowlists of configs/app.json (the user's sandbox.network.allow and
// the project's network_allow), the user's local_ports, and, from the host, the session's rules
// (every scope), mode and whether anyone can be asked. Without a host (`mewbo tool`, `mewbo mcp`)
// the rules are the user's configs/app.json alone and nobody is asked.

export interface SessionPolicy {
  rules: readonly LoadedRule[];
  mode: PermissionMode;
  canAsk: boolean;
}

export interface NetworkServiceOptions {
  config: () => AppConfig;
  /** configs/app.json: its rules are the whole policy where no host gives `policy`. */
  configFile: string;
  policy?: (sessionId: string, root: string) => Promise<SessionPolicy>;
  ask?: (sessionId: string, request: NetworkAsk, signal: AbortSignal) => Promise<AskAnswer>;
  /** Tests resolve their own names; production asks the system. */
  resolver?: Resolver;
  /** Tests may stand a loopback server in for the internet; production classifies by range. */
  addressKind?: (address: string) => AddressKind;
  /** Longest a connection waits for a decision (default ASK_TIMEOUT_MS). */
  askTimeoutMs?: number;
}

export class NetworkService implements ShellNetwork {
  private readonly addressKind: (address: string) => AddressKind;

  constructor(private readonly opts: NetworkServiceOptions) {
    this.addressKind = opts.addressKind ?? addressClassifier();
  }

  /** The allowlist entries in force for a root: the user's, then its project's. */
  allowList(root: string): AllowEntry[] {
    return configAllowList(this.opts.config(), root);
  }

  private async policy(sessionId: string, root: string): Promise<SessionPolicy> {
    if (this.opts.policy) return this.opts.policy(sessionId, root);
    const { sources } = await readSettingsSources({
      configFile: this.opts.configFile,
      root,
      trusted: false,
      admits: async () => false,
    });
    return {
      rules: sources.flatMap((s) => rulesFromSource(s, [])),
      mode: this.opts.config().permission_mode,
      canAsk: false,
    };
  }

  /**
   * What Settings says shells get: confined to the proxy (the ports themselves are per session),
   * or open when the user turned confinement off.
   */
  statusGrant(): NetworkGrant | undefined {
    return this.opts.config().sandbox.network.confine ? { connectPorts: [] } : undefined;
  }

  /** A session's network; `refused` tells the shell that made a refused connection. */
  forSession(
    sessionId: string,
    processes: SessionProcesses,
    refused: (shellId: string | null, reason: string) => void,
  ): SessionNetwork {
    const ask = this.opts.ask;
    return new SessionNetwork({
      processes,
      refused,
      resolver: this.opts.resolver ?? systemResolver,
      ...(this.opts.askTimeoutMs ? { askTimeoutMs: this.opts.askTimeoutMs } : {}),
      addressKind: this.addressKind,
      facts: async (root): Promise<PolicyFacts> => ({
        ...(await this.policy(sessionId, root)),
        allowList: this.allowList(root),
      }),
      confine: () => this.opts.config().sandbox.network.confine,
      localPorts: () => this.opts.config().sandbox.network.local_ports,
      ...(ask ? { ask: (request, signal) => ask(sessionId, request, signal) } : {}),
    });
  }
}
