import { homePaths } from '../host/config/paths';
import { readWebSecret } from '../web/web-secret';
import { makeLoginProof, PROOF_HEADER } from '../web/login-proof';
import { rememberedPort, webSecretFile } from '../web/web-host-state';
import { parseCliArgs, UsageError, type CliCommand } from './command';

const usage = `Usage: mewbo login [--port N]

Asks the running web host ('mewbo serve') for a new one-time login link, for another browser.
The link works once, for one minute. Only the user who runs the host can ask: the request is signed
with the secret in $MEWBO_HOME/configs, which the agent's sandboxed shells cannot read.`;

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
    let answer: Response;
    try {
      answer = await fetch(`http://127.0.0.1:${port}/login/code`, {
        method: 'POST',
        headers: { [PROOF_HEADER]: makeLoginProof(secret) },
      });
    } catch (err) {
      process.stderr.write(
        `mewbo login: no web host answers on port ${port} (${(err as Error).message}); is mewbo serve running?\n`,
      );
      return 1;
    }
    if (!answer.ok) {
      process.stderr.write(
        `mewbo login: the host on port ${port} refused (HTTP ${answer.status})\n`,
      );
      return 1;
    }
    const { url } = (await answer.json()) as { url: string };
    process.stdout.write(`${url}\n`);
    return 0;
  },
};
