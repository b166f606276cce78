import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { abi, attackWorld, launcher, waitForFile, type AttackWorld } from './attack-world';

// Route 1: the launcher's rules must not be rewritable by a confined command. The attack: a
// shell rewrites the rules the next command starts under, granting everything, so the next
// command reads another project's secret.

const WIDE = 'ffffffff /\\0';
let w: AttackWorld | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe.runIf(abi > 0)('route 1: sandbox rules handed over by path', () => {
  test('unprotected: rules read from a file the shell can write are rewritten and the next command reads the secret', async () => {
    w = attackWorld();
    // The old mechanism: a rules file beside the shells' temp directory, named to the launcher.
    const rulesDir = join(w.base, 'rules');
    mkdirSync(rulesDir);
    const prepared = await w.service.sandbox.prepare({
      config: w.config,
      root: w.root,
      tempDirs: [tmpdir()],
    });
    if ('refused' in prepared || !prepared.rules) throw new Error('no rules');
    const file = join(rulesDir, 'rules-1');
    writeFileSync(file, prepared.rules);
    // The first command is confined (cannot read the secret) and rewrites the rules file...
    const first = spawnSync(
      '/bin/sh',
      [
        '-c',
        `${launcher} --rules-fd 3 -- /bin/sh -c "cat ${w.other}/secret.txt; printf '${WIDE}' > ${file}" 3< ${file}`,
      ],
      { encoding: 'utf8', cwd: w.root, input: '' },
    );
    expect(first.stdout + first.stderr, first.stderr).not.toContain(w.secret);
    expect(readFileSync(file, 'utf8')).toBe(WIDE.replace('\\0', '\0'));
    // ...so the next command, started from that file, runs with everything granted.
    const second = spawnSync(
      '/bin/sh',
      ['-c', `${launcher} --rules-fd 3 -- cat ${w.other}/secret.txt 3< ${file}`],
      { encoding: 'utf8' },
    );
    expect(second.stdout, second.stderr).toContain(w.secret);
  });

  for (const tty of [false, true]) {
    test(`protected (${tty ? 'PTY' : 'pipes'}): a shell rewriting every rules file and launcher descriptor it can find changes nothing for the next command`, async () => {
      w = attackWorld();
      const beats = join(w.root, 'beats.txt');
      // Every place rules could be: files next to the shells' temp dirs (where they were), any
      // rules-looking file under the temp root, and descriptor 0 and 3 of every other process
      // (a launcher's rules pipe or stdin), through /proc.
      const attack = `while :; do
        for f in "$TMPDIR"/../rules/* "$TMPDIR"/../*/rules-* /tmp/mewbo-*/rules/* /proc/[0-9]*/fd/3 /proc/[0-9]*/fd/0; do
          printf '${WIDE}' 2>/dev/null > "$f" && echo "$f" >> hits.txt
        done
        echo beat >> beats.txt
      done`;
      const bg = await w.shells.start({
        command: attack,
        cwd: w.root,
        root: w.root,
        config: w.config,
        tty: false,
      });
      if ('kind' in bg) throw new Error(bg.message);
      await waitForFile(beats);
      for (let i = 0; i < 10; i++) {
        const out = await w.run(`cat ${w.other}/secret.txt; echo done`, { tty });
        expect(out).toContain('done');
        expect(out).not.toContain(w.secret);
      }
      expect(readFileSync(beats, 'utf8').split('\n').length).toBeGreaterThan(2);
    });
  }
});
