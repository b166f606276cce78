import { formatSshUrl, isSshUrl, parseSshUrl, type SshTarget } from '../host/remote/ssh-url';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Host } from '../host/host';
import { homePaths } from '../host/config/paths';
import { readJsonOr } from '../host/store/atomic-json';
import { lastRunState } from '../host/agent/session-state';
import { checkSessionRoot, ForbiddenRootError, rootLimitsOf } from '../host/sessions/session-root';
import { headlessSignIn } from '../host/mcp/sign-in-policy';
import { browserOpener } from '../host/system/browser-opener';
import type { Session } from '../host/sessions/session';
import { HostError } from '../host/rpc/host-error';
import { findAgent } from '../host/acp/client/agent-presets';
import { HostKeyError, SshConnectError } from '../host/remote/host-key-error';
import { RemoteSetupError } from '../host/remote/remote-setup-error';
import { parseCliArgs, permissionModeOption, UsageError, type CliCommand } from './command';

const usage = `Usage: mewbo run --project DIR|ssh://[USER@]HOST[:PORT]/PATH [--worktree [BRANCH]] [--trust] [--model M | --agent NAME] [--permission-mode ask|accept-edits|auto|plan] "prompt"
       mewbo run --resume ID [options] "prompt"
       mewbo run --continue [--project DIR] [options] "prompt"

Runs one agent session on DIR without a UI (trigger/API style) and streams its events as JSON lines
on stdout, one event a line. --project takes a folder or a remote project's URL,
ssh://[user@]host[:port]/absolute/path or ssh://ALIAS/path (an alias of ~/.ssh/config), whose tools
run on that host. --resume continues session ID with its whole history (the model sees
it); --continue continues the most recent session of --project (default: the current directory).
--worktree runs the new session in its own git worktree of DIR's repository, on a new branch from
its HEAD (named for the prompt, or BRANCH: --worktree BRANCH "prompt" or --worktree=BRANCH; for an
ssh:// project, made on that host by its git, beside the repository); the checkout stays as it is (mewbo sessions diff, apply and discard take the work from there). Nobody is there to ask: no ask_user_question, no device tools, and in
ask mode (the default) a call that needs approval is refused with a reason the model sees; use
--permission-mode accept-edits or auto to let it edit or run commands.

--agent NAME runs the session's turns on an external ACP agent (agents.NAME in configs/app.json,
or a preset found on PATH: claude-code, codex, gemini) instead of the app's own; it starts confined
to DIR, and its permission requests are answered by the permission mode (refused in ask mode).

The model comes from --model (a name, or provider:name such as openai:gpt-5 or ollama:qwen3), else
configs/app.json, else ANTHROPIC_API_KEY / OPENAI_API_KEY (with ANTHROPIC_BASE_URL / OPENAI_BASE_URL),
else a local Ollama. Settings live under $MEWBO_HOME (default ~/.mewbo).

Exit status: 0 when the run finished, 1 when it failed (no model, a provider error, the step limit,
interrupted), 2 on bad usage.`;

/**
 * `--worktree` takes an optional BRANCH, which parseArgs cannot say: the word after it is the
 * branch when it is no option and a prompt still follows it; `--worktree=BRANCH` always is.
 * A bare `--worktree` becomes `--worktree=` (a branch named for the session).
 */
function optionalWorktreeValue(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a !== '--worktree') {
      out.push(a);
      continue;
    }
    const next = argv[i + 1];
    const promptAfter = argv.slice(i + 2).some((x) => !x.startsWith('-'));
    if (next !== undefined && !next.startsWith('-') && promptAfter && !/\s/.test(next)) {
      out.push(`--worktree=${next}`);
      i++;
    } else out.push('--worktree=');
  }
  return out;
}

function parse(argv: string[]) {
  const parsed = parseCliArgs({
    args: optionalWorktreeValue(argv),
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      model: { type: 'string' },
      'permission-mode': { type: 'string' },
      trust: { type: 'boolean' },
      resume: { type: 'string' },
      continue: { type: 'boolean' },
      worktree: { type: 'string' },
      agent: { type: 'string' },
    },
  });
  const { values, positionals } = parsed;
  const prompt = positionals.join(' ').trim();
  if (values.resume !== undefined && values.continue)
    throw new UsageError('--resume and --continue exclude each other');
  if (!values.project && values.resume === undefined && !values.continue)
    throw new UsageError('--project DIR is required');
  if (!prompt) throw new UsageError('a prompt is required');
  if (values.worktree !== undefined && (values.resume !== undefined || values.continue))
    throw new UsageError(
      '--worktree starts a new session: it does not go with --resume or --continue',
    );
  if (values.agent !== undefined && (values.resume !== undefined || values.continue))
    throw new UsageError('--agent starts a new session: a continued session keeps its own agent');
  if (values.agent !== undefined && values.model !== undefined)
    throw new UsageError('--agent and --model exclude each other: the agent uses its own model');
  if (values.agent !== undefined && values.worktree !== undefined)
    throw new UsageError('--agent does not go with --worktree yet');
  const mode = permissionModeOption(values['permission-mode']);
  const dir = values.project ?? (values.continue ? process.cwd() : undefined);
  let project: string | undefined;
  let remote: string | undefined;
  if (dir !== undefined && isSshUrl(dir)) {
    // A folder on an SSH host: its tools run there (issue #29); nothing here is looked at.
    let target: SshTarget;
    try {
      target = parseSshUrl(dir);
    } catch (err) {
      throw new UsageError(`--project: ${(err as Error).message}`);
    }
    project = target.path;
    remote = formatSshUrl(target);
  } else if (dir !== undefined) {
    try {
      project = realpathSync(resolve(dir));
      if (!statSync(project).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new UsageError(`--project: ${dir} is not a directory`);
    }
  }
  return {
    project,
    remote,
    prompt,
    model: values.model,
    mode,
    trust: values.trust === true,
    resume: values.resume,
    continue: values.continue ?? false,
    /** undefined: no worktree; '': a branch named for the session; else that branch. */
    worktree: values.worktree,
    agent: values.agent,
  };
}

/** The session to continue (--resume, --continue) or a new one on the project. */
async function sessionFor(host: Host, args: ReturnType<typeof parse>): Promise<Session> {
  if (args.resume !== undefined) {
    const session = await host.sessions.get(args.resume).catch(() => {
      throw new RunFailure(`no session '${args.resume}' (see mewbo sessions list)`);
    });
    const root = session.meta.root;
    if (root && !session.meta.remote && !existsSync(root))
      throw new RunFailure(`session ${session.id}'s project folder ${root} no longer exists`);
    return session;
  }
  if (args.continue) {
    const latest = (await host.sessions.list()).find((s) => s.root === args.project);
    if (!latest)
      throw new RunFailure(
        `no session to continue in ${args.project}: start one with mewbo run --project DIR "prompt"`,
      );
    return host.sessions.get(latest.id);
  }
  const title = args.prompt.split('\n')[0]!.slice(0, 80);
  if (args.worktree !== undefined) {
    const made = await host.worktrees
      .createSession({
        title,
        project: null,
        projectRoot: args.project!,
        request: args.worktree ? { branch: args.worktree } : true,
        // On an SSH host: made there by the host's git.
        ...(args.remote ? { remote: args.remote } : {}),
      })
      .catch((err: unknown) => {
        if (err instanceof HostError) throw new RunFailure(err.message);
        throw err;
      });
    const wt = made.session.meta.worktree!;
    process.stderr.write(`mewbo run: worktree ${wt.path} on branch ${wt.branch}\n`);
    for (const s of made.copy.skipped)
      process.stderr.write(
        `mewbo run: warning: worktrees.copy: ${s.path} not copied: ${s.reason}\n`,
      );
    return made.session;
  }
  if (args.agent !== undefined) {
    const found = findAgent(host.config, process.env, args.agent);
    if ('error' in found) throw new RunFailure(found.error);
  }
  return host.sessions.create({
    title,
    project: null,
    root: args.project!,
    ...(args.agent !== undefined ? { agent: args.agent } : {}),
    ...(args.remote ? { remote: args.remote } : {}),
  });
}

class RunFailure extends Error {}

/**
 * Opens the project's host before the session starts: nobody is there to accept an unknown host
 * key (or install Node), so the run ends with what to do before the model is ever called.
 */
async function connectFirst(host: Host, url: string): Promise<void> {
  await host.remoteHosts.hostFor(url).catch((err: unknown) => {
    if (
      err instanceof HostKeyError ||
      err instanceof SshConnectError ||
      err instanceof RemoteSetupError
    )
      throw new RunFailure(err.message);
    throw err;
  });
}

/** The project folder of a session to resume, read before the host starts (for --trust). */
async function rootOfSession(id: string | undefined): Promise<string | null> {
  if (id === undefined) return null;
  const meta = (await readJsonOr(join(homePaths().sessionsDir, id, 'meta.json'), null)) as {
    root?: string | null;
  } | null;
  return meta?.root ?? null;
}

export const runCommand: CliCommand = {
  name: 'run',
  usage,
  async run(argv) {
    const args = parse(argv);
    const root = args.project ?? (await rootOfSession(args.resume));
    // Before the host starts: --trust must never trust a root no session may act in.
    try {
      checkSessionRoot(root, rootLimitsOf(homePaths(), process.env));
    } catch (err) {
      if (!(err instanceof ForbiddenRootError)) throw err;
      process.stderr.write(`mewbo run: ${err.message}\n`);
      return 1;
    }
    const host = await Host.create({
      // Headless: nobody sees Settings, so a bad value stops the run before it acts on a default.
      configErrors: 'refuse',
      // A remote project is trusted by its URL: its files are read on the host.
      trustRoots: args.trust && root ? [args.remote ?? root] : [],
      // Nobody presses Sign in here: a server that needs it opens the browser (bounded wait), or
      // the run says which command signs in and goes on without that server.
      mcpSignIn: headlessSignIn(browserOpener(), (line) =>
        process.stderr.write(`mewbo run: ${line}\n`),
      ),
    });
    try {
      let session: Session;
      try {
        if (args.remote) await connectFirst(host, args.remote);
        session = await sessionFor(host, args);
        const resumedOnHost = !args.remote && session.meta.remote;
        if (resumedOnHost) await connectFirst(host, resumedOnHost);
      } catch (err) {
        if (!(err instanceof RunFailure)) throw err;
        process.stderr.write(`mewbo run: ${err.message}\n`);
        return 1;
      }
      process.stderr.write(`mewbo run: session ${session.id}\n`);
      if (session.meta.root) {
        const root = await host.policyRoot(session);
        const warnings = [
          ...(await host.rules.load(root)).warnings,
          ...(await host.skills.load(root)).warnings,
          ...(await host.commands.load(root)).warnings,
        ];
        for (const w of warnings)
          process.stderr.write(
            `mewbo run: warning: ${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}
`,
          );
      }
      // A continued session prints only what this run adds.
      const continued = args.resume !== undefined || args.continue;
      const sub = session.subscribe(continued ? session.length : 0, (item) =>
        process.stdout.write(`${JSON.stringify(item)}
`),
      );
      const interrupt = () => void host.agent.stop(session);
      process.once('SIGINT', interrupt);
      process.once('SIGTERM', interrupt);
      try {
        if (args.mode) await host.agent.setMode(session, args.mode);
        await host.agent.send(session, args.prompt, {
          capabilities: [],
          headless: true,
          model: args.model,
        });
        await host.agent.idle(session.id);
      } catch (err) {
        if (!(err instanceof ForbiddenRootError)) throw err;
        process.stderr.write(`mewbo run: ${err.message}\n`);
        return 1;
      } finally {
        process.off('SIGINT', interrupt);
        process.off('SIGTERM', interrupt);
        await sub.dispose();
      }
      const last = lastRunState(session.events());
      return last?.state === 'idle' && last.reason === 'finished' ? 0 : 1;
    } finally {
      await host.dispose();
    }
  },
};
