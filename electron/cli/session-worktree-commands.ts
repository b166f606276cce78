import { join } from 'node:path';
import { homePaths } from '../host/config/paths';
import { loadConfigFile } from '../host/config/load-config';
import type { SessionManager } from '../host/sessions/session-manager';
import { SessionWorktrees } from '../host/worktrees/session-worktrees';
import { openRemoteSessions } from '../host/remote/open-remote-sessions';
import { remoteSessionsOptions } from '../host/remote/remote-sessions-options';
import { remoteWorktreeSites } from '../host/remote/remote-worktree-site';
import { placeOf } from '../host/remote/ssh-url';
import { parseCliArgs, UsageError } from './command';
import { confirmed, failure } from './cli-failure';

// `mewbo sessions diff|apply|discard ID`: the Review of a session in its own worktree, headless.

async function withWorktrees<T>(
  sessions: SessionManager,
  fn: (w: SessionWorktrees) => Promise<T>,
): Promise<T> {
  const paths = homePaths();
  const config = loadConfigFile(paths.configFile);
  // A session on a project on an SSH host has its worktree there: its host is connected when
  // the command first needs it, never for a local session.
  const remotes = openRemoteSessions(remoteSessionsOptions(sessions, () => config, paths));
  const worktrees = await SessionWorktrees.open({
    appHome: paths.home,
    config: () => config,
    sessions,
    scratchDir: join(paths.stateDir, 'worktree-scratch'),
    remoteSite: remoteWorktreeSites(
      () => remotes,
      () => config.worktrees.copy,
    ),
  });
  try {
    return await fn(worktrees).catch(failure);
  } finally {
    worktrees.dispose();
    await remotes.dispose();
  }
}

function sessionId(positionals: string[]): string {
  const [id] = positionals;
  if (!id) throw new UsageError('a session id is required');
  return id;
}

async function diff(sessions: SessionManager, argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: { stat: { type: 'boolean' } },
  });
  const id = sessionId(positionals);
  return withWorktrees(sessions, async (w) => {
    if (values.stat) {
      const review = await w.review(id);
      for (const f of review.files)
        process.stdout.write(
          `${f.status}\t${f.additions ?? '-'}\t${f.deletions ?? '-'}\t${f.path}\n`,
        );
      return 0;
    }
    process.stdout.write(await w.diff(id));
    return 0;
  });
}

async function apply(sessions: SessionManager, argv: string[]): Promise<number> {
  const { positionals } = parseCliArgs({ args: argv, allowPositionals: true, options: {} });
  const id = sessionId(positionals);
  return withWorktrees(sessions, async (w) => {
    const files = await w.apply(id);
    const { meta } = await sessions.get(id);
    const checkout = placeOf(meta, meta.worktree!.checkout);
    process.stdout.write(
      files.length
        ? `Applied to ${checkout} (uncommitted):\n${files.map((f) => `  ${f}\n`).join('')}`
        : `Nothing to apply: ${checkout} already has the session's changes.\n`,
    );
    return 0;
  });
}

async function discard(sessions: SessionManager, argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: { yes: { type: 'boolean', short: 'y' } },
  });
  const id = sessionId(positionals);
  return withWorktrees(sessions, async (w) => {
    const { meta } = await sessions.get(id);
    const wt = meta.worktree;
    const loss = await w.loss(id);
    process.stdout.write(
      `Removes the worktree ${wt ? placeOf(meta, wt.path) : undefined} and the branch ${wt?.branch}.\n`,
    );
    if (loss.uncommitted.length)
      process.stdout.write(
        `Lost: ${loss.uncommitted.length} file(s) changed and not committed:\n${loss.uncommitted.map((p) => `  ${p}\n`).join('')}`,
      );
    if (loss.commits.length)
      process.stdout.write(
        `Lost: ${loss.commits.length} commit(s) no other branch has:\n${loss.commits.map((c) => `  ${c.sha.slice(0, 12)} ${c.subject}\n`).join('')}`,
      );
    if (!loss.uncommitted.length && !loss.commits.length)
      process.stdout.write('Nothing is lost: every change is on another branch too.\n');
    const go = await confirmed(
      'Discard?',
      values.yes === true,
      'nothing was removed: run again with --yes to discard',
    );
    if (!go) return 1;
    await w.discard(id);
    process.stdout.write(`Discarded ${wt?.path} and ${wt?.branch}.\n`);
    return 0;
  });
}

export const worktreeSubcommands = { diff, apply, discard };
