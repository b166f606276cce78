import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PERMISSION_MODES, type PermissionMode } from '../../../electron/host/config/schema';
import { addressClassifier, type AddressKind } from '../../../electron/host/network/address-kind';
import { parseDomainPattern } from '../../../electron/host/network/domain-pattern';
import { normalizeHost, type Host } from '../../../electron/host/network/host-name';
import {
  decideAddress,
  decideName,
  allowEntries,
  howToAllow,
  type AllowEntry,
  type NameFacts,
} from '../../../electron/host/network/network-policy';
import type { LoadedRule } from '../../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../../electron/host/rules/rule';
import type { RuleScope } from '../../../electron/host/rules/settings-sources';

const host = (text: string): Host => normalizeHost(text)!;
const rule = (kind: RuleKind, raw: string, scope: RuleScope = 'user'): LoadedRule => {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return {
    kind,
    rule: p.rule,
    scope,
    ...(scope === 'session' ? {} : { file: `/cfg/${scope}.json`, line: 3 }),
  };
};
const entry = (raw: string, source = 'sandbox.network.allow'): AllowEntry => {
  const p = parseDomainPattern(raw);
  if (!p.ok) throw new Error(p.error);
  return { pattern: p.pattern, raw, source };
};
const facts = (over: Partial<NameFacts> & { host: Host }): NameFacts => ({
  port: 443,
  rules: [],
  allowList: [],
  mode: 'ask',
  canAsk: true,
  addressKind: addressClassifier(),
  ...over,
});

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
const name = fc.array(label, { minLength: 2, maxLength: 3 }).map((l) => l.join('.'));
const scope = fc.constantFrom<RuleScope>('session', 'project', 'user');
const mode = fc.constantFrom<PermissionMode>(...PERMISSION_MODES);

describe('the name: rules, allowlists and the mode', () => {
  test('deny beats allow and ask from any scope, and over any allowlist entry, in every mode', () => {
    fc.assert(
      fc.property(
        name,
        scope,
        scope,
        mode,
        fc.boolean(),
        fc.constantFrom('exact', 'below', 'bare'),
        (base, denyScope, allowScope, m, canAsk, how) => {
          const n = `www.${base}`;
          const denyRaw =
            how === 'exact' ? `Network(${n})` : how === 'below' ? `Network(*.${base})` : 'Network';
          const v = decideName(
            facts({
              host: host(n),
              mode: m,
              canAsk,
              rules: [
                rule('allow', `Network(${n})`, allowScope),
                rule('ask', `Network(${n})`, allowScope),
                rule('allow', 'Network', allowScope),
                rule('deny', denyRaw, denyScope),
              ],
              allowList: [entry(n), entry('*')],
            }),
          );
          expect(v.kind).toBe('refuse');
          if (v.kind === 'refuse') expect(v.reason).toContain(`deny "${denyRaw}"`);
        },
      ),
    );
  });

  test('an unlisted name asks in ask and accept-edits mode and is refused in auto, plan and where nobody can be asked', () => {
    fc.assert(
      fc.property(name, mode, fc.boolean(), (n, m, canAsk) => {
        const v = decideName(facts({ host: host(n), mode: m, canAsk }));
        const asks = canAsk && (m === 'ask' || m === 'accept-edits');
        expect(v.kind).toBe(asks ? 'ask' : 'refuse');
        if (v.kind === 'refuse') {
          expect(v.reason).toContain(`connection to ${n}:443 refused`);
          expect(v.reason).toContain(`"Network(${n})" to permissions.allow`);
          expect(v.reason).toContain(
            m === 'auto' ? 'auto mode does not ask' : m === 'plan' ? 'plan mode' : 'nobody to ask',
          );
        }
      }),
    );
  });

  test('an allow rule of any scope or an allowlist entry allows a name in every mode, unasked', () => {
    fc.assert(
      fc.property(name, mode, fc.boolean(), scope, fc.boolean(), (n, m, canAsk, s, byList) => {
        const v = decideName(
          facts({
            host: host(n),
            mode: m,
            canAsk,
            ...(byList
              ? { allowList: [entry(`*.${n}`), entry(n, 'projects.web.network_allow')] }
              : { rules: [rule('allow', `Network(${n})`, s)] }),
          }),
        );
        expect(v.kind).toBe('allow');
        if (v.kind === 'allow')
          expect(v.by).toContain(byList ? 'projects.web.network_allow' : `Network(${n})`);
      }),
    );
  });

  test('an ask rule asks even in auto mode, and refuses where nobody can be asked', () => {
    const rules = [
      rule('ask', 'Network(*.example.com)'),
      rule('allow', 'Network(api.example.com)'),
    ];
    expect(decideName(facts({ host: host('api.example.com'), rules, mode: 'auto' }))).toEqual({
      kind: 'ask',
      why: 'ask rule "Network(*.example.com)"',
    });
    const headless = decideName(facts({ host: host('api.example.com'), rules, canAsk: false }));
    expect(headless).toMatchObject({ kind: 'refuse' });
    if (headless.kind === 'refuse') expect(headless.reason).toContain('nobody to ask');
  });

  test('loopback names and addresses are local (the port decides), unless a deny rule covers them', () => {
    for (const h of ['localhost', 'app.localhost', '127.0.0.1', '::1', '0x7f.1']) {
      expect(decideName(facts({ host: host(h), mode: 'auto', canAsk: false }))).toEqual({
        kind: 'local',
      });
      expect(decideName(facts({ host: host(h), rules: [rule('deny', 'Network')] })).kind).toBe(
        'refuse',
      );
    }
    expect(decideName(facts({ host: host('notlocalhost'), mode: 'auto' })).kind).toBe('refuse');
  });

  test('* and a bare allow rule allow every name but no IP address; an address needs itself named', () => {
    for (const allow of [{ allowList: [entry('*')] }, { rules: [rule('allow', 'Network')] }]) {
      expect(decideName(facts({ host: host('any.example'), mode: 'auto', ...allow })).kind).toBe(
        'allow',
      );
      expect(decideName(facts({ host: host('203.0.113.9'), mode: 'auto', ...allow })).kind).toBe(
        'refuse',
      );
    }
    expect(
      decideName(
        facts({ host: host('203.0.113.9'), mode: 'auto', allowList: [entry('203.0.113.9')] }),
      ).kind,
    ).toBe('allow');
  });

  test('a session rule is named as such in a reason', () => {
    const v = decideName(
      facts({ host: host('x.example'), rules: [rule('deny', 'Network(x.example)', 'session')] }),
    );
    expect(v).toMatchObject({ kind: 'refuse' });
    if (v.kind === 'refuse') expect(v.reason).toContain("this session's rules");
    const f = decideName(
      facts({ host: host('x.example'), rules: [rule('deny', 'Network(x.example)')] }),
    );
    if (f.kind === 'refuse') expect(f.reason).toContain('/cfg/user.json:3');
  });

  test('how to allow names the rule and the allowlist key', () => {
    expect(howToAllow(host('Registry.NPMjs.org'))).toBe(
      'To allow it, add "Network(registry.npmjs.org)" to permissions.allow (configs/app.json, or the project\'s .mewbo/settings.json) or "registry.npmjs.org" to sandbox.network.allow in configs/app.json.',
    );
  });
});

describe('the address a name resolved to', () => {
  const kinds: AddressKind[] = ['loopback', 'private', 'link-local', 'not-unicast', 'public'];
  const address = (k: AddressKind) =>
    ({
      loopback: '127.0.0.1',
      private: '10.0.0.7',
      'link-local': '169.254.169.254',
      'not-unicast': '224.0.0.9',
      public: '93.184.216.34',
    })[k];

  test('a name that resolves inward is refused unless that exact address is allowed (DNS rebinding)', () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom(...kinds),
        fc.boolean(),
        fc.boolean(),
        (n, k, byRule, named) => {
          const a = address(k);
          const grant = named
            ? byRule
              ? { rules: [rule('allow', `Network(${a})`)], allowList: [] }
              : { rules: [], allowList: [entry(a)] }
            : {
                rules: [rule('allow', `Network(${n})`), rule('allow', 'Network')],
                allowList: [entry('*'), entry(n)],
              };
          const v = decideAddress({ host: host(n), port: 443, address: a, kind: k, ...grant });
          if (k === 'loopback') expect(v.kind).toBe('local');
          else if (k === 'public' || named) expect(v.kind).toBe('connect');
          else {
            expect(v.kind).toBe('refuse');
            if (v.kind === 'refuse') {
              expect(v.reason).toContain(`${n}:443 (${a})`);
              expect(v.reason).toContain(`a ${k} address`);
              expect(v.reason).toContain(`"Network(${a})"`);
            }
          }
        },
      ),
    );
  });

  test('an address the client named itself, once allowed, is connected to whatever its range', () => {
    for (const k of ['private', 'link-local', 'not-unicast', 'public'] as const)
      expect(
        decideAddress({
          host: host(address(k)),
          port: 22,
          address: address(k),
          kind: k,
          rules: [],
          allowList: [],
        }).kind,
      ).toBe('connect');
  });

  test('a deny rule naming the address refuses it whatever name led there', () => {
    const v = decideAddress({
      host: host('db.example'),
      port: 5432,
      address: '93.184.216.34',
      kind: 'public',
      rules: [
        rule('deny', 'Network(93.184.216.34)', 'project'),
        rule('allow', 'Network(93.184.216.34)'),
      ],
      allowList: [entry('93.184.216.34')],
    });
    expect(v).toMatchObject({ kind: 'refuse' });
    if (v.kind === 'refuse') expect(v.reason).toContain('/cfg/project.json:3');
    // A name pattern in a deny rule is about names: the address check does not read it.
    expect(
      decideAddress({
        host: host('db.example'),
        port: 5432,
        address: '93.184.216.34',
        kind: 'public',
        rules: [rule('deny', 'Network(other.example)')],
        allowList: [],
      }).kind,
    ).toBe('connect');
  });

  test('loopback stays local even when the address is named in an allow rule', () => {
    expect(
      decideAddress({
        host: host('allowed.test'),
        port: 80,
        address: '127.0.0.1',
        kind: 'loopback',
        rules: [rule('allow', 'Network(127.0.0.1)')],
        allowList: [entry('127.0.0.1')],
      }).kind,
    ).toBe('local');
  });
});

describe('Network rules in the rule parser', () => {
  test('a bad destination is refused with the rule and the reason', () => {
    const p = parseRule('Network(https://example.com)');
    expect(p).toEqual({
      ok: false,
      error:
        '"Network(https://example.com)": "https://example.com": write the host alone, without a scheme (example.com, not https://example.com)',
    });
    expect(parseRule('Network(*.com)').ok).toBe(false);
  });

  test('a Network rule covers no tool, so it never decides a tool call', () => {
    const p = parseRule('Network(example.com)');
    expect(p.ok && p.rule.tools).toEqual([]);
    const bare = parseRule('Network');
    expect(bare.ok && bare.rule.tools).toEqual([]);
    expect(bare.ok && bare.rule.destination).toBeUndefined();
  });
});

describe('the edges of the policy', () => {
  const auto = (over: Partial<NameFacts> & { host: Host }) =>
    decideName(facts({ mode: 'auto', canAsk: false, ...over }));

  test('allowEntries keeps each valid entry as written with its source, and skips the rest', () => {
    expect(allowEntries(['Example.com', 'https://x', '*.npmjs.org', '10.0.0.5'], 'here')).toEqual([
      { pattern: { kind: 'exact', name: 'example.com' }, raw: 'Example.com', source: 'here' },
      { pattern: { kind: 'below', base: 'npmjs.org' }, raw: '*.npmjs.org', source: 'here' },
      { pattern: { kind: 'address', address: '10.0.0.5' }, raw: '10.0.0.5', source: 'here' },
    ]);
  });

  test("a rule of another tool says nothing about the network; a Network rule's destination must match", () => {
    const bashDeny = rule('deny', 'Bash');
    expect(
      auto({ host: host('example.com'), rules: [bashDeny, rule('allow', 'Network(example.com)')] }),
    ).toMatchObject({ kind: 'allow' });
    expect(
      auto({
        host: host('example.com'),
        rules: [rule('deny', 'Network(other.test)'), rule('allow', 'Network(example.com)')],
      }),
    ).toMatchObject({ kind: 'allow' });
  });

  test('a rule written in a file without a line is named by its file', () => {
    const deny = { ...rule('deny', 'Network(example.com)'), line: undefined };
    expect(auto({ host: host('example.com'), rules: [deny] })).toEqual({
      kind: 'refuse',
      reason:
        'connection to example.com:443 refused: the rule deny "Network(example.com)" (/cfg/user.json) blocks it.',
    });
  });

  test('only localhost and names below it are local; a name that starts with localhost is not', () => {
    expect(auto({ host: host('localhost') })).toEqual({ kind: 'local' });
    expect(auto({ host: host('app.localhost') })).toEqual({ kind: 'local' });
    expect(auto({ host: host('localhost.evil.test') })).toMatchObject({ kind: 'refuse' });
  });

  test('a denied literal address is named as written', () => {
    expect(
      decideAddress({
        host: host('10.0.0.5'),
        port: 80,
        address: '10.0.0.5',
        kind: 'private',
        rules: [rule('deny', 'Network(10.0.0.5)')],
        allowList: [],
      }),
    ).toEqual({
      kind: 'refuse',
      reason:
        'connection to 10.0.0.5:80 refused: the rule deny "Network(10.0.0.5)" (/cfg/user.json:3) blocks that address.',
    });
  });

  test('a private address is reached when any one allow rule or allowlist entry names it, among others', () => {
    const base = {
      host: host('intranet.test'),
      port: 80,
      address: '10.0.0.5',
      kind: 'private' as const,
    };
    expect(
      decideAddress({
        ...base,
        rules: [rule('allow', 'Network(other.test)'), rule('allow', 'Network(10.0.0.5)')],
        allowList: [],
      }),
    ).toEqual({ kind: 'connect' });
    expect(
      decideAddress({ ...base, rules: [], allowList: [entry('intranet.test'), entry('10.0.0.5')] }),
    ).toEqual({ kind: 'connect' });
  });
});
