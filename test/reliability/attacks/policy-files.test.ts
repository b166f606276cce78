import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { abi, attackWorld, type AttackWorld } from './attack-world';
import { snapshot } from '../sandbox-battery';

// Part 3 of issue 25, kernel side: the files the host runs or obeys (.mewbo/, .claude/,
// .mcp.json, .git/hooks, .git/config) are read-only to a confined shell although the project
// around them is writable. A hook written there would run with the user's rights (in the same
// run for settings hooks, at the next commit for git's), a .mcp.json server at the next start.
// Every attack is first run against its own copy of the same files in a subdirectory of the same
// project, from the same confined shell: nothing holds those copies, so each attack is seen to
// work; then the same attacks against the project's own files are seen to fail. Both write scopes:
// the files are held whichever the user chose.

const EVIL = 'EVIL-PAYLOAD';

/** A project's policy files, as a trusted project has them, with a real git repository. */
function plant(dir: string): void {
  mkdirSync(join(dir, '.mewbo'), { recursive: true });
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.mewbo', 'settings.json'), '{"permissions":{"allow":[]}}\n');
  writeFileSync(join(dir, '.claude', 'settings.json'), '{"hooks":{}}\n');
  writeFileSync(join(dir, '.mcp.json'), '{"mcpServers":{}}\n');
  execFileSync('git', ['init', '-q', dir]);
}

/** One attack: a shell line that prints `WIN <name>` only when it changed a policy file. */
interface Attack {
  name: string;
  /** `d`: the directory holding the files, absolute; `rel`: the same from the shell's cwd. */
  line: (d: string, rel: string) => string;
}

const BASE_ATTACKS: Attack[] = [
  { name: 'mewbo-settings', line: (d) => `echo '{"hooks":"${EVIL}"}' > ${d}/.mewbo/settings.json` },
  {
    name: 'claude-settings',
    line: (d) => `echo '{"hooks":"${EVIL}"}' > ${d}/.claude/settings.json`,
  },
  { name: 'mcp-json', line: (d) => `echo '{"mcpServers":"${EVIL}"}' > ${d}/.mcp.json` },
  {
    name: 'pre-commit-hook',
    line: (d) => `printf '#!/bin/sh\\n${EVIL}\\n' > ${d}/.git/hooks/pre-commit`,
  },
  {
    name: 'git-config',
    line: (d) => `printf '[core]\\n\\tfsmonitor = ${EVIL}\\n' >> ${d}/.git/config`,
  },
  { name: 'git-config-by-git', line: (d) => `git -C ${d} config core.hooksPath /${EVIL}` },
  // Relative to the working directory the shell started in, which predates the mounts.
  { name: 'relative-path', line: (_d, rel) => `echo '${EVIL}' > ${rel}/.git/hooks/post-checkout` },
  { name: 'truncate', line: (d) => `truncate -s 0 ${d}/.mcp.json` },
  // Created where the file is absent, inside a held directory.
  {
    name: 'new-claude-local',
    line: (d) => `echo '{"hooks":"${EVIL}"}' > ${d}/.claude/settings.local.json`,
  },
  { name: 'new-mewbo-dir', line: (d) => `mkdir ${d}/.mewbo/commands` },
  // A file written beside it, then renamed over it (how editors and git save).
  {
    name: 'rename-over-mcp',
    line: (d) => `echo '{"x":"${EVIL}"}' > ${d}/new.json && mv -f ${d}/new.json ${d}/.mcp.json`,
  },
  {
    name: 'rename-over-config',
    line: (d) =>
      `cp ${d}/.git/config ${d}/cfg && echo '${EVIL}' >> ${d}/cfg && mv -f ${d}/cfg ${d}/.git/config`,
  },
  // The whole directory moved away or removed, and a writable one (or a link to one) put there.
  {
    name: 'swap-mewbo-dir',
    line: (d) =>
      `mv ${d}/.mewbo ${d}/old-mewbo && mkdir ${d}/.mewbo && echo '${EVIL}' > ${d}/.mewbo/settings.json`,
  },
  {
    name: 'symlink-swap-claude',
    line: (d) =>
      `mkdir -p ${d}/mine && echo '${EVIL}' > ${d}/mine/settings.json && rm -rf ${d}/.claude && ln -s mine ${d}/.claude`,
  },
  {
    name: 'symlink-swap-hooks',
    line: (d) =>
      `mkdir -p ${d}/h && printf '${EVIL}' > ${d}/h/pre-commit && mv ${d}/.git/hooks ${d}/old-hooks && ln -s ../h ${d}/.git/hooks`,
  },
  {
    name: 'swap-git-dir',
    line: (d) =>
      `mv ${d}/.git ${d}/old-git && mkdir -p ${d}/.git/hooks && echo '${EVIL}' > ${d}/.git/hooks/pre-commit`,
  },
  {
    name: 'symlink-over-mcp',
    line: (d) => `echo '${EVIL}' > ${d}/e.json && ln -sf e.json ${d}/.mcp.json`,
  },
  // A second name on the writable project, written through.
  {
    name: 'hard-link-mcp',
    line: (d) => `ln ${d}/.mcp.json ${d}/mcp-link && echo '${EVIL}' > ${d}/mcp-link`,
  },
  {
    name: 'hard-link-config',
    line: (d) => `ln ${d}/.git/config ${d}/cfg-link && echo '${EVIL}' >> ${d}/cfg-link`,
  },
  // Through another process's view of the files: the supervisor's, init's, its own.
  {
    name: 'proc-root',
    line: (d) =>
      `for p in $PPID 1 $$; do echo '${EVIL}' > /proc/$p/root${d}/.mcp.json && exit 0; done; exit 1`,
  },
  // The project itself moved away and a new one put in its place.
  {
    name: 'move-project',
    line: (d) =>
      `cd / && mv ${d} ${d}-moved && mkdir -p ${d}/.git/hooks && echo '${EVIL}' > ${d}/.git/hooks/pre-commit`,
  },
];

/**
 * A user namespace and a mount namespace of its own, to undo the mount from there (the
 * propagation left as it is: changing it is a mount call, which Landlock refuses).
 */
const USERNS_ATTACK: Attack = {
  name: 'unmount-in-userns',
  line: (d) =>
    `unshare --propagation unchanged -Um sh -c 'umount -l ${d}/.mcp.json; echo ${EVIL} > ${d}/.mcp.json'`,
};

const ATTACKS = [...BASE_ATTACKS, USERNS_ATTACK];

/** Each attack in its own subshell so all are tried; `dirOf` names the files it goes after. */
function script(attacks: Attack[], cwd: string, dirOf: (a: Attack) => string): string {
  const line = (a: Attack) => a.line(dirOf(a), relative(cwd, dirOf(a)) || '.');
  return [...attacks.map((a) => `(${line(a)}) 2>/dev/null && echo WIN ${a.name}`), 'echo end'].join(
    '\n',
  );
}

/** The host's view of the policy files under `d`: what each is, and every byte of them. */
function policyState(d: string): string {
  const kinds = ['.mewbo', '.claude', '.mcp.json', '.git', '.git/hooks', '.git/config'].map(
    (p) => `${p}:${lstatSync(join(d, p)).isSymbolicLink() ? 'link' : 'real'}`,
  );
  const trees = ['.mewbo', '.claude', '.git/hooks'].map((p) => snapshot(join(d, p)));
  const files = ['.mcp.json', '.git/config'].map((p) => readFileSync(join(d, p), 'utf8'));
  return [...kinds, ...trees, ...files].join('\n');
}

for (const scope of ['project', 'unrestricted'] as const) {
  describe.runIf(abi >= 1)(
    `policy files (write scope ${scope}): a confined shell cannot rewrite what the host obeys`,
    () => {
      let w: AttackWorld;
      beforeAll(() => {
        w = attackWorld({ shell_write_scope: scope });
        plant(w.root);
      });
      afterAll(() => w.dispose());

      test('unprotected: against copies in subdirectories, every attack works from the same shell', async () => {
        const twin = (a: Attack) => join(w.root, `twin-${a.name}`);
        for (const a of ATTACKS) plant(twin(a));
        const out = await w.run(script(ATTACKS, w.root, twin));
        for (const a of ATTACKS) expect(out).toContain(`WIN ${a.name}\n`);
        expect(readFileSync(join(twin(ATTACKS[2]!), '.mcp.json'), 'utf8')).toContain(EVIL);
      });

      for (const tty of scope === 'project' ? [false, true] : [false]) {
        test(`protected (${tty ? 'PTY' : 'pipes'}): the project's own policy files are unchanged and in place`, async () => {
          const before = policyState(w.root);
          const out = await w.run(
            script(ATTACKS, w.root, () => w.root),
            { tty },
          );
          expect(out).toContain('end');
          for (const a of ATTACKS) expect(out).not.toContain(`WIN ${a.name}`);
          expect(policyState(w.root)).toBe(before);
          expect(policyState(w.root)).not.toContain(EVIL);
        });
      }

      test('the rest of the project, .git included, stays writable: a commit works', async () => {
        const out = await w.run(
          'echo work > work.txt && git add work.txt && git -c user.name=a -c user.email=a@b commit -qm work && git log -1 --format=%s',
        );
        expect(out).toBe('work\n');
      });

      test('the shell says its policy files are read-only', async () => {
        const r = await w.shells.run({
          command: 'true',
          cwd: w.root,
          root: w.root,
          config: w.config,
          tty: false,
          timeoutMs: 30_000,
        });
        if ('kind' in r) throw new Error(r.message);
        expect(r.info.sandbox).toMatchObject({
          mode: 'landlock',
          policy_files: { mode: 'read_only' },
        });
      });
    },
  );
}
