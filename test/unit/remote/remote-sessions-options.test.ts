import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { homePaths } from '../../../electron/host/config/paths';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { AppConfig } from '../../../electron/host/config/schema';
import { remoteSessionsOptions } from '../../../electron/host/remote/remote-sessions-options';
import { SessionManager } from '../../../electron/host/sessions/session-manager';
import { tempDir } from '../../helpers/temp';
import { worktreeRecord } from '../../helpers/worktree-record';

// The one set of options the host and the CLI open remote hosts with: the session store's
// project URL and log, and ssh settings read from the config at each connect, not when built.

const home = tempDir('mewbo-remote-options-');
afterAll(() => home.cleanup());

describe('remoteSessionsOptions', () => {
  it("reads each session's URL and worktree, and appends to its log; ssh settings as the config is now", async () => {
    const paths = homePaths({ MEWBO_HOME: home.dir });
    const sessions = new SessionManager(join(home.dir, 'sessions'));
    const far = await sessions.create({ root: '/srv/app', remote: 'ssh://box/srv/app' });
    const near = await sessions.create({ root: home.dir });
    let config: AppConfig = parseConfig({ remote: { ssh_config: '/a', keepalive_minutes: 2 } });
    const opts = remoteSessionsOptions(sessions, () => config, paths);

    expect(await opts.remoteOf(far.id)).toBe('ssh://box/srv/app');
    expect(await opts.remoteOf(near.id)).toBeNull();
    expect([opts.sshConfig(), opts.keepaliveS()]).toEqual(['/a', 120]);
    config = parseConfig({ remote: { ssh_config: null, keepalive_minutes: 5 } });
    expect([opts.sshConfig(), opts.keepaliveS()]).toEqual([null, 300]);
    expect([opts.appHome, opts.policyDir]).toEqual([paths.home, paths.remoteProjectsDir]);

    const worktree = worktreeRecord('/srv/app', 'fix');
    const inWorktree = await sessions.create({
      root: worktree.path,
      remote: 'ssh://box/srv/app',
      worktree,
    });
    const discarded = await sessions.create({
      root: worktree.path,
      remote: 'ssh://box/srv/app',
      worktree: { ...worktree, removed_at: 1 },
    });
    expect(await opts.worktreeOf(inWorktree.id)).toBe(worktree.path);
    expect(await opts.worktreeOf(far.id)).toBeNull();
    expect(await opts.worktreeOf(discarded.id)).toBeNull();

    await opts.append(far.id, { type: 'notice', code: 'remote_test', message: 'late' });
    expect(far.events().at(-1)).toMatchObject({ type: 'notice', code: 'remote_test' });
  });
});
