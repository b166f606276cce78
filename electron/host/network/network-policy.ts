import type { PermissionMode } from '../config/schema';
import type { LoadedRule } from '../rules/permission-rules';
import { NETWORK_RULE } from '../rules/rule';
import type { RuleKind } from '../rules/rule';
import type { AddressKind } from './address-kind';
import {
  parseDomainPattern,
  patternCoversAddress,
  patternMatches,
  type DomainPattern,
} from './domain-pattern';
import { hostKey, type Host } from './host-name';

// The proxy's policy, as a decision table over plain facts (no I/O): first the destination as the
// client named it, then each address its name resolved to.
//
// The name, in this order:
//   1. a deny rule `Network(...)` covering it, from any scope          -> refused
//   2. a loopback name or address (localhost, *.localhost, 127/8, ::1) -> local: the port decides
//   3. an ask rule covering it                                          -> ask (refused where
//                                                                          nobody can be asked)
//   4. an allow rule or an allowlist entry covering it                  -> allowed
//   5. otherwise the session's mode: ask and accept-edits ask; auto, plan and a headless run refuse.
// Deny beats allow whatever the scopes: a project cannot loosen the user's deny, nor the user a
// project's. A bare `Network` rule covers every destination for deny and ask, and every name (as
// `*` does) for allow.
//
// The address (what a name resolved to, or the literal the client named):
//   - a deny rule naming that address                                   -> refused
//   - loopback                                                          -> local: the port decides
//   - public                                                            -> connect
//   - private, link-local, or not unicast: only when an allow rule or allowlist entry names that
//     exact address, or the client named the address itself and it was allowed (by a rule or the
//     user). A name the user allowed does not carry its resolution with it: `evil.example` allowed
//     and then resolving to 10.0.0.1 (DNS rebinding, or a name that points inward) is refused.

export interface AllowEntry {
  pattern: DomainPattern;
  /** As written, and where (for the reason the user reads). */
  raw: string;
  source: string;
}

/** Allowlist entries from a list as written (the config was validated: a bad one is skipped). */
export function allowEntries(list: readonly string[], source: string): AllowEntry[] {
  return list.flatMap((raw) => {
    const parsed = parseDomainPattern(raw);
    return parsed.ok ? [{ pattern: parsed.pattern, raw, source }] : [];
  });
}

export interface NameFacts {
  host: Host;
  port: number;
  /** Loaded rules of every scope (this session's included); only `Network` ones are read. */
  rules: readonly LoadedRule[];
  /** The user's sandbox.network.allow and the project's network_allow. */
  allowList: readonly AllowEntry[];
  mode: PermissionMode;
  /** Someone can be asked: a session with a UI (false in a headless run or a standalone tool). */
  canAsk: boolean;
  /** What an IP address is (the client may name one instead of a name). */
  addressKind: (address: string) => AddressKind;
  /**
   * Why a destination nothing allows is refused, and how to allow it, where that is not the
   * session's (a server's proxy: its own allowlist, no mode, nobody asked).
   */
  unlisted?: (host: Host) => string;
}

export type NameVerdict =
  | { kind: 'allow'; by: string }
  | { kind: 'ask'; why: string | null }
  | { kind: 'local' }
  | { kind: 'refuse'; reason: string };

const LOOPBACK_NAME = /^(?:localhost|.+\.localhost)$/;

/** Where a rule came from, as a person would look for it. */
function ruleWhere(r: LoadedRule): string {
  return r.file ? `${r.file}${r.line ? `:${r.line}` : ''}` : `this session's rules`;
}

function networkRules(rules: readonly LoadedRule[], kind: RuleKind): LoadedRule[] {
  return rules.filter((r) => r.kind === kind && r.rule.toolName === NETWORK_RULE);
}

/** The first rule of `kind` covering the host; a bare rule covers names always, addresses unless allowing. */
function ruleCovering(rules: readonly LoadedRule[], kind: RuleKind, host: Host) {
  return networkRules(rules, kind).find((r) => {
    const dest = r.rule.destination;
    if (!dest) return kind !== 'allow' || host.kind === 'name';
    return patternMatches(dest, host);
  });
}

/** How to allow a destination, said in every refusal the agent reads. */
export function howToAllow(host: Host): string {
  const key = hostKey(host);
  return `To allow it, add "${NETWORK_RULE}(${key})" to permissions.allow (configs/app.json, or the project's .mewbo/settings.json) or "${key}" to sandbox.network.allow in configs/app.json.`;
}

function unlistedReason(mode: PermissionMode): string {
  if (mode === 'auto') return 'auto mode does not ask';
  if (mode === 'plan') return 'plan mode opens no new destination';
  return 'this run has nobody to ask';
}

/** localhost and its subdomains (RFC 6761), or a loopback address. */
function isLoopback(host: Host, addressKind: (address: string) => AddressKind): boolean {
  return host.kind === 'name'
    ? LOOPBACK_NAME.test(host.name)
    : addressKind(host.address) === 'loopback';
}

export function decideName(f: NameFacts): NameVerdict {
  const shown = `${hostKey(f.host)}:${f.port}`;
  const deny = ruleCovering(f.rules, 'deny', f.host);
  if (deny)
    return {
      kind: 'refuse',
      reason: `connection to ${shown} refused: the rule deny "${deny.rule.raw}" (${ruleWhere(deny)}) blocks it.`,
    };
  if (isLoopback(f.host, f.addressKind)) return { kind: 'local' };
  const ask = ruleCovering(f.rules, 'ask', f.host);
  if (ask)
    return f.canAsk
      ? { kind: 'ask', why: `ask rule "${ask.rule.raw}"` }
      : {
          kind: 'refuse',
          reason: `connection to ${shown} refused: the rule ask "${ask.rule.raw}" (${ruleWhere(ask)}) needs an approval and this run has nobody to ask.`,
        };
  const allow = ruleCovering(f.rules, 'allow', f.host);
  if (allow) return { kind: 'allow', by: `rule "${allow.rule.raw}" (${ruleWhere(allow)})` };
  const listed = f.allowList.find((e) => patternMatches(e.pattern, f.host));
  if (listed) return { kind: 'allow', by: `"${listed.raw}" in ${listed.source}` };
  if (f.canAsk && (f.mode === 'ask' || f.mode === 'accept-edits'))
    return { kind: 'ask', why: null };
  return {
    kind: 'refuse',
    reason: `connection to ${shown} refused: ${f.unlisted ? f.unlisted(f.host) : `${hostKey(f.host)} is not allowed and ${unlistedReason(f.mode)}. ${howToAllow(f.host)}`}`,
  };
}

export interface AddressFacts {
  /** The destination as the client named it, after its name was allowed. */
  host: Host;
  port: number;
  address: string;
  kind: AddressKind;
  rules: readonly LoadedRule[];
  allowList: readonly AllowEntry[];
}

export type AddressVerdict =
  { kind: 'connect' } | { kind: 'local' } | { kind: 'refuse'; reason: string };

export function decideAddress(f: AddressFacts): AddressVerdict {
  const literal = f.host.kind === 'ip';
  const at = literal ? `${f.address}:${f.port}` : `${hostKey(f.host)}:${f.port} (${f.address})`;
  const denied = networkRules(f.rules, 'deny').find(
    (r) => r.rule.destination && patternCoversAddress(r.rule.destination, f.address),
  );
  if (denied)
    return {
      kind: 'refuse',
      reason: `connection to ${at} refused: the rule deny "${denied.rule.raw}" (${ruleWhere(denied)}) blocks that address.`,
    };
  if (f.kind === 'loopback') return { kind: 'local' };
  if (f.kind === 'public' || literal) return { kind: 'connect' };
  const named =
    networkRules(f.rules, 'allow').some(
      (r) => r.rule.destination && patternCoversAddress(r.rule.destination, f.address),
    ) || f.allowList.some((e) => patternCoversAddress(e.pattern, f.address));
  if (named) return { kind: 'connect' };
  return {
    kind: 'refuse',
    reason: `connection to ${at} refused: ${hostKey(f.host)} resolves to a ${f.kind} address, which a name reaches only when the address itself is allowed: add "${NETWORK_RULE}(${f.address})" to permissions.allow if you mean it.`,
  };
}
