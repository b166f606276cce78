import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { LauncherSandbox } from '../../../electron/host/lsp/sandboxed-launch';
import { ShellService } from '../../../electron/host/shells/shell-service';
import { abi, attackWorld, installRoot, launcher, type AttackWorld } from './attack-world';

// Route 6: no shell or server reads or writes any of $MEWBO_HOME (configs and keys, sessions,
// state, the TLS key, device records) or the app's install. The attack rewrites a session's
// root, plants a paired device and reads the TLS key and the config's API key.

let w: AttackWorld | undefined;
let extra: ShellService | undefined;
afterEach(async () => {
  await extra?.dispose();
  extra = undefined;
  await w?.dispose();
  w = undefined;
});

function plant(world: AttackWorld) {
  const session = join(world.paths.sessionsDir, 's_victim01');
  mkdirSync(session, { recursive: true });
  writeFileSync(join(session, 'meta.json'), JSON.stringify({ root: world.root }));
  writeFileSync(join(world.paths.stateDir, 'devices.json'), '[]');
  writeFileSync(join(world.paths.stateDir, 'tls-key.pem'), 'TLS-PRIVATE-KEY\n');
  return {
    session,
    attack: [
      `cat ${world.paths.configFile}`,
      `cat ${world.paths.stateDir}/tls-key.pem`,
      `echo '{"root":"/"}' > ${session}/meta.json`,
      `echo '[{"device_id":"evil"}]' > ${world.paths.stateDir}/devices.json`,
      `echo x > ${world.paths.sessionsDir}/planted.txt`,
      `cat ${installRoot}/package.json | head -c 40`,
      'echo end',
    ].join('; '),
  };
}

function leaked(world: AttackWorld, out: string, session: string): string[] {
  const wins: string[] = [];
  if (out.includes(world.key)) wins.push('read the API key');
  if (out.includes('TLS-PRIVATE-KEY')) wins.push('read the TLS key');
  if (readFileSync(join(session, 'meta.json'), 'utf8').includes('"/"'))
    wins.push("rewrote a session's root");
  if (readFileSync(join(world.paths.stateDir, 'devices.json'), 'utf8').includes('evil'))
    wins.push('planted a device');
  if (out.includes('"name": "mewbo-desktop"') || out.includes('"name":"mewbo-desktop"'))
    wins.push('read the install');
  return wins;
}

describe.runIf(abi > 0)('route 6: app state and install', () => {
  test('unprotected: with only configs/ denied (the old list), a shell rewrites sessions/ and state/', async () => {
    // Writes unrestricted as they were then: the state lies outside the project.
    w = attackWorld({ harness_self_deny: false, shell_write_scope: 'unrestricted' });
    const { session, attack } = plant(w);
    // The old deny list: $MEWBO_HOME/configs and nothing else of the app's state.
    extra = new ShellService({
      paths: { ...w.paths, home: w.paths.configDir },
      config: () => w!.config,
      log: () => {},
    });
    const r = await extra.forSession('s_old').run({
      command: attack,
      cwd: w.root,
      root: w.root,
      config: w.config,
      tty: false,
      timeoutMs: 30_000,
    });
    if ('kind' in r) throw new Error(r.message);
    expect(r.result.text).toContain('end');
    expect(leaked(w, r.result.text, session)).toEqual(
      expect.arrayContaining([
        "rewrote a session's root",
        'planted a device',
        'read the TLS key',
        'read the install',
      ]),
    );
  });

  // Under both write scopes: the deny list holds the state, not just the default's read-only home.
  for (const scope of ['project', 'unrestricted'] as const) {
    test(`protected (${scope} writes): a shell reaches nothing of $MEWBO_HOME or the install, with a clear refusal`, async () => {
      w = attackWorld({ shell_write_scope: scope });
      const { session, attack } = plant(w);
      const out = await w.run(attack);
      expect(out).toContain('end');
      expect(out).toMatch(/Permission denied/);
      expect(leaked(w, out, session)).toEqual([]);
    });
  }

  test('protected: a confined server (server_sandbox) reaches nothing of $MEWBO_HOME either', async () => {
    w = attackWorld();
    const { session, attack } = plant(w);
    const sandbox = new LauncherSandbox({
      launcher,
      installRoot,
      homeDir: w.paths.home,
      config: () => w!.config,
    });
    const wrapped = await sandbox.wrap(w.root, ['/bin/sh', '-c', attack]);
    if ('refused' in wrapped) throw new Error(wrapped.refused.message);
    const r = spawnSync(wrapped.argv[0]!, wrapped.argv.slice(1), {
      input: wrapped.stdinPrefix,
      encoding: 'utf8',
      cwd: w.root,
    });
    const out = r.stdout + r.stderr;
    expect(out).toContain('end');
    expect(leaked(w, out, session)).toEqual([]);
    sandbox.dispose();
  });
});
