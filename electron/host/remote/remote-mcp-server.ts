import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { PROJECT_MCP_FILE, readProjectMcpConfig } from '../mcp/project-config';
import type { ShellService } from '../shells/shell-service';
import { createStandaloneContext } from '../tools/standalone-context';
import { withDeniedPaths } from './remote-part';

// A project's `.mcp.json` stdio server for a session on an SSH host (issue #29 part 3): the app
// decides trust over its copy of the file (remote-project-mirror.ts), then starts this over an SSH
// channel (`mewbo remote-mcp`), whose stdio becomes the server's. Here, on the host, the file is
// read again and must be the very text the app admitted (its SHA-256): a file changed between the
// app's check and this start runs nothing. The server starts confined like the session's shells on
// this host (its sandbox, the remote part's folder and the app's $MEWBO_HOME denied), in the
// project, with this host's environment and the file's `env` (never the app's).

export interface ProjectServerRun {
  root: string;
  name: string;
  /** SHA-256 (hex) of the `.mcp.json` text the app trusted. */
  sha256: string;
  env: NodeJS.ProcessEnv;
  /** Paths the sandbox denies besides its own (the remote part's folder, the app's home). */
  denied: readonly string[];
  input: Readable;
  output: Writable;
  errors: Writable;
}

/** Runs the server until it exits (or the channel closes); returns the exit code to pass on. */
export async function runProjectServer(o: ProjectServerRun): Promise<number> {
  const fail = (why: string) => {
    o.errors.write(`mewbo remote-mcp: ${why}\n`);
    return 1;
  };
  const { servers, text } = await readProjectMcpConfig(o.root);
  if (text === undefined) return fail(`${o.root}/${PROJECT_MCP_FILE} is gone`);
  if (createHash('sha256').update(text).digest('hex') !== o.sha256)
    return fail(
      `${o.root}/${PROJECT_MCP_FILE} changed since the app trusted it: trust the project again`,
    );
  const config = servers[o.name];
  if (!config || !('command' in config))
    return fail(`no stdio server '${o.name}' in ${o.root}/${PROJECT_MCP_FILE}`);
  const context = await createStandaloneContext({
    root: o.root,
    env: o.env,
    configure: (c) => withDeniedPaths(c, o.denied),
  });
  try {
    const start = await (context.ctx.services.shells as ShellService).confine(
      `mcp-${o.name}`,
      o.root,
      [config.command, ...config.args],
      { ...o.env, ...config.env },
    );
    if ('refused' in start) return fail(start.refused.message);
    const [file, ...args] = start.argv;
    const child = spawn(file!, args, {
      cwd: config.cwd ?? o.root,
      env: start.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (start.stdinPrefix) child.stdin.write(start.stdinPrefix);
    o.input.pipe(child.stdin);
    child.stdout.pipe(o.output);
    child.stderr.pipe(o.errors);
    // The channel closed (the app stopped the server, or the link dropped): the server goes too.
    o.input.once('end', () => child.kill('SIGTERM'));
    return await new Promise<number>((resolve) => {
      child.once('error', (err) => resolve(fail(`${config.command}: ${err.message}`)));
      child.once('close', (code) => resolve(code ?? 1));
    });
  } finally {
    await context.dispose();
  }
}
