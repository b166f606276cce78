import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

import { Host } from '../host/host';
import { lastRunState } from '../host/agent/session-state';
import { parseCliArgs, permissionModeOption, UsageError, type CliCommand } from './command';

const usage = `Usage: mewbo run --project DIR [--trust] [--model M] [--permission-mode ask|accept-edits|auto|plan] "prompt"

Runs one agent session on DIR without a UI (trigger/API style) and streams its events as JSON lines
on stdout, one event a line. Nobody is there to ask: no ask_user_question, no device tools, and in
ask mode (the default) a call that needs approval is refused with a reason the model sees; use
--permission-mode accept-edits or auto to let it edit or run commands.

The model comes from --model (a name, or provider:name such as openai:gpt-5 or ollama:qwen3), else
configs/app.json, else ANTHROPIC_API_KEY / OPENAI_API_KEY (with ANTHROPIC_BASE_URL / OPENAI_BASE_URL),
else a local Ollama. Settings live under $MEWBO_HOME (default ~/.mewbo).

Exit status: 0 when the run finished, 1 when it failed (no model, a provider error, the step limit,
interrupted), 2 on bad usage.

A project is untrusted unless configs/app.json says \`"trusted": true\` for it (or lists it in
trusted_projects): its .mcp.json servers do not start and nothing under it is executed by the host.
--trust trusts DIR for this run only (nothing is written).`;

function parse(argv: string[]) {
  const parsed = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      model: { type: 'string' },
      'permission-mode': { type: 'string' },
      trust: { type: 'boolean' },
    },
  });
  const { values, positionals } = parsed;
  const prompt = positionals.join(' ').trim();
  if (!values.project) throw new UsageError('--project DIR is required');
  if (!prompt) throw new UsageError('a prompt is required');
  const mode = permissionModeOption(values['permission-mode']);
  let project: string;
  try {
    project = realpathSync(resolve(values.project));
    if (!statSync(project).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new UsageError(`--project: ${values.project} is not a directory`);
  }
  return { project, prompt, model: values.model, mode, trust: values.trust === true };
}

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run one headless agent session on a project, streaming its events as JSON lines',
  usage,
  async run(argv) {
    const args = parse(argv);
    const host = await Host.create({ trustRoots: args.trust ? [args.project] : [] });
    try {
      const session = await host.sessions.create({
        title: args.prompt.split('\n')[0]!.slice(0, 80),
        project: null,
        root: args.project,
      });
      process.stderr.write(`mewbo run: session ${session.id}\n`);
      for (const w of (await host.rules.load(args.project)).warnings)
        process.stderr.write(
          `mewbo run: warning: ${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}\n`,
        );
      const sub = session.subscribe(0, (item) => process.stdout.write(`${JSON.stringify(item)}\n`));
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
