import { homePaths } from '../host/config/paths';
import { readWebSecret } from '../web/web-secret';
import {
  CHALLENGE_HEADER,
  makeLoginProof,
  newChallenge,
  PROOF_HEADER,
  verifyHostAnswer,
} from '../web/login-proof';
import { rememberedPort, webSecretFile } from '../web/web-host-state';
import { parseCliArgs, UsageError, type CliCommand } from './command';

const usage = `Usage: mewbo login [--port N]

Asks the running web host ('mewbo serve') for a new one-time login link, for another browser.
The link works once, for one minute. Only the user who runs the host can ask: the request is signed
with the secret in $MEWBO_HOME/configs, which the agent's sandboxed shells cannot read. The host
proves it holds the same secret first, so nothing is sent to another program on that port.`;

/** POSTs to the host; the answer, or a sentence saying why there is none. */
async function post(url: string, headers: Record<string, string>): Promise<Response | string> {
  try {
    return await fetch(url, { method: 'POST', headers });
  } catch (err) {
    return `no web host answers (${(err as Error).message}); is mewbo serve running?`;
  }
}

export const loginCommand: CliCommand = {
  name: 'login',
  usage,
  async run(argv) {
    const { values } = parseCliArgs({ args: argv, options: { port: { type: 'string' } } });
    const paths = homePaths();
    const port = values.port === undefined ? rememberedPort(paths) : Number(values.port);
    if (port === null) {
      process.stderr.write(
        'mewbo login: no web host has run with this $MEWBO_HOME; start one with mewbo serve\n',
      );
      return 1;
    }
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
      throw new UsageError(`--port: not a port number: ${values.port}`);
    const secretFile = webSecretFile(paths);
    const secret = readWebSecret(secretFile);
    if (!secret) {
      process.stderr.write(
        `mewbo login: cannot read the web host's secret ${secretFile} (missing, unreadable or not owner-only); run this as the user running the host, outside the agent's sandbox\n`,
      );
      return 1;
    }
    const host = `127.0.0.1:${port}`;
    const challenge = newChallenge();
    const hello = await post(`http://${host}/login/host`, { [CHALLENGE_HEADER]: challenge });
    const proved =
      typeof hello !== 'string' &&
      hello.ok &&
      verifyHostAnswer(
        secret,
        host,
        challenge,
        `${((await hello.json().catch(() => ({}))) as { answer?: unknown }).answer}`,
      );
    if (!proved) {
      process.stderr.write(
        `mewbo login: ${typeof hello === 'string' ? hello : `what listens on port ${port} is not this $MEWBO_HOME's web host (it could not prove it holds the secret)`}; nothing was sent. Start mewbo serve, or give its port with --port\n`,
      );
      return 1;
    }
    const answer = await post(`http://${host}/login/code`, {
      [PROOF_HEADER]: makeLoginProof(secret, host),
    });
    if (typeof answer === 'string' || !answer.ok) {
      process.stderr.write(
        `mewbo login: the host on port ${port} refused (${typeof answer === 'string' ? answer : `HTTP ${answer.status}`})\n`,
      );
      return 1;
    }
    const { url } = (await answer.json()) as { url: string };
    process.stdout.write(`${url}\n`);
    return 0;
  },
};
