import { spawn } from 'node:child_process';
import { Client } from '../../renderer/src/transport/transport';
import { WsTransport } from '../../renderer/src/transport/ws-transport';
import {
  initialInput,
  readInput,
  type ElicitContent,
  type ElicitForm,
} from '../../shared/mcp/elicitation-form';
import type { SessionEvent } from '../../shared/protocol/events';
import { exchangeCode, newLoginUrl, socketWithCookie } from '../helpers/web-login';

// The elicitation scenarios through the desktop path: a headless `mewbo run` declines every
// elicitation (issue #27 part 2: no one can answer there), so a scenario that checks what an
// accepting client sends cannot pass through it. Here the app runs as `mewbo serve` and this
// script is the user at the window: it opens a session on the project, sends the prompt, and
// when the server's card appears presses Submit without touching it, which sends what the card
// shows (each field's default, read by the same shared functions the desktop and phone cards
// use). The run's end is the scenario's end.

/** How long a scenario may take through the desktop path before it counts as failed. */
const RUN_LIMIT_MS = 120_000;

/** What the card sends when the user submits it as shown (ElicitationCard.tsx FormBody). */
function submittedAsShown(form: ElicitForm): ElicitContent {
  const content: ElicitContent = {};
  for (const field of form.fields) {
    const { value } = readInput(field, initialInput(field));
    if (value !== undefined) content[field.name] = value;
  }
  return content;
}

/** Starts `mewbo serve` on `home`; resolves with its origin once it prints its login URL. */
function serve(cliJs: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cliJs, 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/[^/\s]+)\/login\?code=/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mewbo serve exited with ${code}`)));
  });
  return { child, origin };
}

/**
 * Runs one prompt in a session of project `project` (a key of configs/app.json's projects) on
 * a `mewbo serve` host, accepting each elicitation card as shown. Resolves with an exit code.
 */
export async function runAtTheWindow(
  cliJs: string,
  home: string,
  project: string,
  prompt: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const host = serve(cliJs, env);
  try {
    const origin = await host.origin;
    const cookie = await exchangeCode(await newLoginUrl(origin, home));
    const transport = new WsTransport(`ws://${new URL(origin).host}/ws`, socketWithCookie(cookie));
    const client = new Client(transport);
    try {
      const { session } = await client.invoke('sessions.create', { project });
      const ended = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the run did not end')), RUN_LIMIT_MS);
        let sent = false;
        const sub = client.subscribe(`session:${session.id}`, 0, (item) => {
          const e = item as SessionEvent;
          if (e.type === 'elicitation' && e.mode === 'form' && e.form) {
            void client.invoke('agent.answerElicitation', {
              id: session.id,
              elicitation_id: e.elicitation_id,
              action: 'accept',
              content: submittedAsShown(e.form),
            });
          }
          if (e.type === 'user_message') sent = true;
          if (sent && e.type === 'run_state' && ['idle', 'failed', 'stopped'].includes(e.state)) {
            clearTimeout(timer);
            sub.unsubscribe();
            resolve(e.state === 'idle' ? 0 : 1);
          }
        });
      });
      await client.invoke('sessions.send', {
        id: session.id,
        text: prompt,
        capabilities: ['generative_ui', 'ask_user', 'approvals'],
      });
      return await ended;
    } finally {
      transport.close();
    }
  } finally {
    host.child.kill('SIGTERM');
  }
}
