import { existsSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  makeBattery,
  outsideWriteAttempts,
  readAttempts,
  snapshot,
  writeAttempts,
  type Battery,
} from './sandbox-battery';

// Attempts to read or write another configured project and the app's config directory from a
// sandboxed shell, by every route we know of; zero may succeed. The same battery runs again
// with agent.shell_write_scope "project", plus writes outside the project and temp dirs.

async function failures(
  b: Battery,
  attempts: [string, string][],
  leaked: (out: string) => boolean,
): Promise<string[]> {
  const wins: string[] = [];
  for (const [name, command] of attempts) {
    const out = await b.run(command);
    if (leaked(out)) wins.push(`${name}: ${out.slice(0, 300)}`);
  }
  return wins;
}

function leaks(b: Battery) {
  return (out: string) =>
    out.includes(b.secret) || out.includes(b.key) || out.includes('RAW-DEVICE-OPENED');
}

for (const scope of ['unrestricted', 'project'] as const) {
  describe(`sandbox escape battery, write scope ${scope}`, () => {
    let b: Battery;
    beforeAll(() => {
      b = makeBattery({ shell_write_scope: scope });
    });
    afterAll(async () => {
      await b.dispose();
    });

    test('canaries: the same techniques reach the project itself', async () => {
      const out = await b.run(
        'cat mine.txt; python3 -c "print(open(\'mine.txt\').read())"; ln -s mine.txt l && cat l; echo w > w.txt && cat w.txt; echo t > "$TMPDIR/t" && cat "$TMPDIR/t"',
      );
      expect(out).toBe('mine\nmine\n\nmine\nw\nt\n');
    });

    test('at least 25 ways to read a denied project or the config dir, zero successes', async () => {
      const attempts = readAttempts(b);
      expect(attempts.length).toBeGreaterThanOrEqual(25);
      expect(await failures(b, attempts, leaks(b))).toEqual([]);
    });

    test('writes into a denied project or the config dir, zero successes', async () => {
      const before = snapshot(b.other) + snapshot(b.configDir);
      const attempts = writeAttempts(b);
      await failures(b, attempts, () => false);
      expect(snapshot(b.other) + snapshot(b.configDir)).toBe(before);
    });

    if (scope === 'project') {
      test('at least 25 ways to write outside the project and temp dirs, zero successes', async () => {
        const etcProbe = join('/etc', `mewbo-write-scope-probe-${randomBytes(4).toString('hex')}`);
        const before = snapshot(b.outside);
        const attempts = outsideWriteAttempts(b, etcProbe);
        expect(attempts.length).toBeGreaterThanOrEqual(25);
        await failures(b, attempts, () => false);
        const etcWritten = existsSync(etcProbe);
        rmSync(etcProbe, { force: true });
        expect(etcWritten).toBe(false);
        expect(snapshot(b.outside)).toBe(before);
      });

      test('under the write scope the project, its TMPDIR and shared memory stay writable and everything readable', async () => {
        const out = await b.run(
          'echo p > p.txt && cat p.txt; f=$(mktemp) && echo m > "$f" && cat "$f"; echo v > /dev/shm/mewbo-ws-$$ && cat /dev/shm/mewbo-ws-$$ && rm /dev/shm/mewbo-ws-$$; head -c 4 /etc/hostname >/dev/null && echo read-etc',
        );
        expect(out).toBe('p\nm\nv\nread-etc\n');
      });
    }
  });
}
