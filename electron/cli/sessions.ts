import { readFile, realpath, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { userTurns } from '../../shared/protocol/rewinds';
import { homePaths } from '../host/config/paths';
import { loadConfigFile } from '../host/config/load-config';
import { CheckpointStore } from '../host/checkpoints/checkpoint-store';
import { checkpointSites } from '../host/checkpoints/checkpoint-sites';
import {
  SessionCheckpoints,
  type SessionCheckpointsOptions,
} from '../host/checkpoints/session-checkpoints';
import { openRemoteSessions } from '../host/remote/open-remote-sessions';
import { remoteSessionsOptions } from '../host/remote/remote-sessions-options';
import { formatSshUrl, isSshUrl, parseSshUrl, placeOf } from '../host/remote/ssh-url';
import type { RewindMode } from '../../shared/protocol/commands/checkpoints';
import { SessionManager } from '../host/sessions/session-manager';
import type { Session } from '../host/sessions/session';
import {
  exportSession,
  forkSession,
  carriedWorktree,
  importSession,
  parseExportedLog,
  type ImportTarget,
} from '../host/sessions/session-transfer';
import { checkSessionRoot, rootLimitsOf } from '../host/sessions/session-root';
import { ProjectRegistry } from '../host/projects/project-registry';
import { parseCliArgs, UsageError, type CliCommand } from './command';
import { CliFailure, confirmed, failure } from './cli-failure';
import { worktreeSubcommands } from './session-worktree-commands';
import { worktreeOfBranch } from '../host/worktrees/create-worktree';
import { removeSessionWorktree } from '../host/worktrees/remove-worktree';
import { HostError } from '../host/rpc/host-error';

const usage = `Usage:
  mewbo sessions list [--project DIR|URL] [--json]
  mewbo sessions export <id> --format markdown|jsonl [-o FILE]
  mewbo sessions import FILE.jsonl [--project KEY [--in-checkout]]
  mewbo sessions fork <id> [--at-turn N]
  mewbo sessions rewind <id> --to-turn N [--files-only | --conversation-only] [--yes]
  mewbo sessions diff <id> [--stat]
  mewbo sessions apply <id>
  mewbo sessions discard <id> [--yes]

Sessions live under $MEWBO_HOME/sessions (default ~/.mewbo). A turn is a user message, counted
from 1 in the conversation as it stands. fork copies the history up to and including turn N (all
of it without --at-turn) into a new session and prints its id. rewind takes the project's files
and the conversation back to just before turn N (one of them with --files-only or
--conversation-only); it prints what it would change and asks, or goes ahead with --yes. Files you
changed yourself since the agent last touched them are kept. A rewind can be undone in the app.
import binds the new session to project KEY (a key from configs/app.json or the app's project
list), or to no project without --project: the file's own project folder and permission mode are
history and never used, it starts in ask mode, and calls it left unfinished are not run. A session
that worked in its own worktree carries its branch and base commit: imported with --project, it
gets a new worktree of that branch in KEY's repository (refused, saying why, when the repository
lacks the branch), or works in KEY's checkout with --in-checkout.
diff, apply and discard take the work of a session made in its own git worktree (mewbo run
--worktree): diff prints what it changed since the commit it started from (committed or not;
--stat: one line a file), apply puts that onto the checkout as uncommitted changes, all or nothing
(refused, naming the files, where you changed the same lines), discard removes its worktree and
branch after saying what is lost (asks, or goes ahead with --yes). list shows each one's branch.
A session of a project on an SSH host is listed with its folders as ssh://HOST/path URLs, and
--project takes such a URL to list the sessions there (a folder here never matches them).

Exit status: 0 done, 1 a failure (unknown session, bad file, a refused rewind or apply), 2 bad usage.`;

function turnSeq(session: Session, n: string | undefined, flag: string): number {
  const turns = userTurns(session.events());
  const i = Number(n);
  if (!Number.isInteger(i) || i < 1)
    throw new UsageError(`${flag} takes a turn number from 1 (the first user message)`);
  if (i > turns.length)
    throw new CliFailure(
      `${flag} ${i}: session ${session.id} has ${turns.length} turn${turns.length === 1 ? '' : 's'}`,
    );
  return turns[i - 1]!.seq;
}

/** --project as list compares it: a folder here (its real path), or a host's folder as its URL. */
async function projectPlace(project: string): Promise<string> {
  if (!isSshUrl(project)) return realpath(resolve(project)).catch(() => resolve(project));
  try {
    return formatSshUrl(parseSshUrl(project));
  } catch (err) {
    return failure(err);
  }
}

async function list(sessions: SessionManager, argv: string[]): Promise<number> {
  const { values } = parseCliArgs({
    args: argv,
    options: { project: { type: 'string' }, json: { type: 'boolean' } },
  });
  // A session on an SSH host names its host's folders as ssh:// URLs, never as folders here.
  let rows = await sessions.list();
  if (values.project) {
    const want = await projectPlace(values.project);
    rows = rows.filter((r) => r.root !== null && placeOf(r, r.root) === want);
  }
  const out = rows.map((r) => {
    const place = (path: string) => placeOf(r, path);
    return {
      id: r.id,
      title: r.title,
      project: r.root === null ? null : place(r.root),
      updated: new Date(r.updated_at).toISOString(),
      events: r.event_count,
      ...(r.worktree
        ? {
            worktree: r.worktree.removed_at ? null : place(r.worktree.path),
            branch: r.worktree.removed_at ? null : r.worktree.branch,
            base: r.worktree.base,
          }
        : {}),
    };
  });
  if (values.json) {
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return 0;
  }
  for (const r of out) {
    // A session in its own worktree says so in one more column: its branch (or that it was discarded).
    const wt = 'base' in r ? `\t${r.branch ? `worktree ${r.branch}` : 'worktree discarded'}` : '';
    process.stdout.write(
      `${r.id}\t${r.updated}\t${r.events}\t${r.project ?? '-'}\t${r.title}${wt}\n`,
    );
  }
  return 0;
}

async function exportCmd(sessions: SessionManager, argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: 'string' }, output: { type: 'string', short: 'o' } },
  });
  const [id] = positionals;
  if (!id) throw new UsageError('a session id is required');
  const format = values.format;
  if (format !== 'markdown' && format !== 'jsonl')
    throw new UsageError('--format must be markdown or jsonl');
  const session = await sessions.get(id).catch(failure);
  const { content } = exportSession(session, format);
  if (values.output) await writeFile(values.output, content);
  else process.stdout.write(content);
  return 0;
}

/** The project the user picked for an import, checked as every session root is. */
async function importTarget(key: string | undefined): Promise<ImportTarget> {
  if (key === undefined) return { project: null, root: null };
  const paths = homePaths();
  const registry = await ProjectRegistry.open({
    stateDir: paths.stateDir,
    home: paths.home,
    configured: loadConfigFile(paths.configFile).projects,
  });
  try {
    const { path } = await registry.resolveFolder(key).catch(failure);
    checkSessionRoot(path, rootLimitsOf(paths, process.env));
    return { project: key, root: path };
  } catch (err) {
    return failure(err);
  } finally {
    registry.dispose();
  }
}

async function importCmd(sessions: SessionManager, argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: { project: { type: 'string' }, 'in-checkout': { type: 'boolean' } },
  });
  const [file] = positionals;
  if (!file) throw new UsageError('a FILE.jsonl to import is required');
  if (values['in-checkout'] && values.project === undefined)
    throw new UsageError('--in-checkout binds the session to a project: name it with --project');
  const target = await importTarget(values.project);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new CliFailure(`cannot read ${file}: ${err.code ?? err.message}`);
  });
  const events = await Promise.resolve()
    .then(() => parseExportedLog(text, file))
    .catch(failure);
  const carried = carriedWorktree(events);
  const notes: string[] = [];
  if (carried && target.root && !values['in-checkout']) {
    const paths = homePaths();
    const made = await worktreeOfBranch({
      projectDir: target.root,
      ...carried,
      appHome: paths.home,
      config: loadConfigFile(paths.configFile).worktrees,
    }).catch((err: unknown) => {
      if (!(err instanceof HostError)) throw err;
      throw new CliFailure(
        `${err.message}. Nothing was imported; with --in-checkout it is imported into ${target.root} without its branch`,
      );
    });
    target.root = made.root;
    target.worktree = made.worktree;
    notes.push(`in a new worktree ${made.worktree.path} of its branch ${carried.branch}`);
    if (made.note) notes.push(made.note);
  } else if (carried) {
    notes.push(
      `it worked on branch ${carried.branch} from ${carried.base.slice(0, 12)}, which is not checked out for it${target.root ? '' : ': import it with --project KEY to work on that branch'}`,
    );
  }
  const session = await importSession(sessions, events, target).catch(async (err: unknown) => {
    if (target.worktree) await removeSessionWorktree(target.worktree).catch(() => {});
    return failure(err);
  });
  process.stdout.write(`${session.id}\n`);
  process.stderr.write(
    `mewbo sessions import: ${session.id} is bound to ${target.project !== null ? `project ${target.project} (${target.root})` : 'no project'}, in ask mode${notes.map((n) => `; ${n}`).join('')}\n`,
  );
  return 0;
}

async function fork(sessions: SessionManager, argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: { 'at-turn': { type: 'string' } },
  });
  const [id] = positionals;
  if (!id) throw new UsageError('a session id is required');
  const session = await sessions.get(id).catch(failure);
  let at: number | undefined;
  if (values['at-turn'] !== undefined) {
    // Up to and including turn N: everything before turn N+1.
    const turns = userTurns(session.events());
    turnSeq(session, values['at-turn'], '--at-turn');
    const next = turns[Number(values['at-turn'])];
    at = next ? next.seq : session.length;
  }
  const copy = await forkSession(sessions, session, at).catch(failure);
  process.stdout.write(`${copy.id}\n`);
  return 0;
}

async function rewind(sessions: SessionManager, argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'to-turn': { type: 'string' },
      'files-only': { type: 'boolean' },
      'conversation-only': { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
    },
  });
  const [id] = positionals;
  if (!id) throw new UsageError('a session id is required');
  if (values['to-turn'] === undefined) throw new UsageError('--to-turn N is required');
  if (values['files-only'] && values['conversation-only'])
    throw new UsageError('--files-only and --conversation-only exclude each other');
  const mode = values['files-only']
    ? 'files'
    : values['conversation-only']
      ? 'conversation'
      : 'both';
  const paths = homePaths();
  const config = loadConfigFile(paths.configFile);
  const session = await sessions.get(id).catch(failure);
  // A session on a project on an SSH host is rewound there (its checkpoints are on the host).
  const remote = session.meta.remote
    ? openRemoteSessions(remoteSessionsOptions(sessions, () => config, paths))
    : null;
  try {
    return await rewindSession(session, mode, values['to-turn'], values.yes === true, {
      siteOf: checkpointSites({
        store: new CheckpointStore({
          dir: paths.checkpointsDir,
          maxFileBytes: config.checkpoints.max_file_bytes,
        }),
        remote,
        maxFileBytes: () => config.checkpoints.max_file_bytes,
      }),
      isRunning: () => false,
      conversationRewound: () => undefined,
      enabled: () => true,
    });
  } finally {
    await remote?.dispose();
  }
}

async function rewindSession(
  session: Session,
  mode: RewindMode,
  turn: string,
  yes: boolean,
  opts: SessionCheckpointsOptions,
): Promise<number> {
  const checkpoints = new SessionCheckpoints(opts);
  const toSeq = turnSeq(session, turn, '--to-turn');
  if (mode !== 'conversation') {
    const preview = await checkpoints.preview(session, toSeq).catch(failure);
    const lines = preview.files.map(
      (f) => `  ${f.action.padEnd(7)} ${f.path}${f.user_changed ? '  (changed by you: kept)' : ''}`,
    );
    process.stdout.write(
      preview.files.length
        ? `Files in ${preview.root}:\n${lines.join('\n')}\n`
        : `No file changes to take back in ${preview.root}.\n`,
    );
    for (const p of preview.not_stored)
      process.stdout.write(`  left as is (over the checkpoint size limit): ${p}\n`);
  }
  if (mode !== 'files')
    process.stdout.write(`The conversation goes back to before turn ${turn}.\n`);
  if (!(await confirmed('Rewind?', yes, 'nothing was changed: run again with --yes to rewind')))
    return 1;
  const e = await checkpoints.rewind(session, { toSeq, mode }).catch(failure);
  process.stdout.write(
    `Rewound: ${e.restored.length} restored, ${e.created.length} created, ${e.deleted.length} deleted` +
      `${e.kept.length ? `, ${e.kept.length} kept` : ''}.\n`,
  );
  return 0;
}

const subcommands: Record<string, (s: SessionManager, argv: string[]) => Promise<number>> = {
  list,
  export: exportCmd,
  import: importCmd,
  fork,
  rewind,
  ...worktreeSubcommands,
};

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    const fn = sub ? subcommands[sub] : undefined;
    if (!fn) throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'a subcommand is required');
    const sessions = new SessionManager(homePaths().sessionsDir);
    try {
      return await fn(sessions, rest);
    } catch (err) {
      if (err instanceof CliFailure) {
        process.stderr.write(`mewbo sessions ${sub}: ${err.message}\n`);
        return 1;
      }
      throw err;
    } finally {
      await sessions.dispose();
    }
  },
};
