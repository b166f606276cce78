import { REMOTE_DIR_NAME, REMOTE_VERSION_FILE } from './constants';
import { shellCommand } from './shell-quote';

// Where the remote part lives under the remote home, as shell words for the commands the app runs
// there: ~/.mewbo-remote/VERSION/ holds a bundle, ~/.mewbo-remote/home/ is the remote part's
// $MEWBO_HOME. "$HOME" is left for the remote shell to expand: the app does not know the path.

const BASE = `"$HOME"/${REMOTE_DIR_NAME}`;
/** The remote part's own state, kept across versions. */
const STATE = 'home';

/**
 * One command: prints the remote's OS, architecture, Node version (empty when there is none)
 * and whether `version` is installed, as key=value lines.
 */
export function probeCommand(version: string): string {
  return [
    'printf "os=%s\\n" "$(uname -s)"',
    'printf "arch=%s\\n" "$(uname -m)"',
    'if command -v node >/dev/null 2>&1; then printf "node=%s\\n" "$(node -v)"; else echo node=; fi',
    `if [ -f ${BASE}/${version}/${REMOTE_VERSION_FILE} ]; then echo installed=yes; else echo installed=no; fi`,
  ].join('; ');
}

/**
 * One command: unpacks the bundle (a gzipped tar on stdin) into a folder of its own, marks it
 * with its version last (so a copy cut short is never taken for a bundle), moves it into place,
 * and removes every other version. The state folder stays.
 */
export function installCommand(version: string): string {
  const incoming = `${BASE}/.incoming-$$`;
  return [
    'set -e',
    'umask 077',
    `mkdir -p ${BASE}`,
    `rm -rf ${incoming}`,
    `mkdir ${incoming}`,
    `tar -xzf - -C ${incoming}`,
    `printf %s ${version} > ${incoming}/${REMOTE_VERSION_FILE}`,
    `rm -rf ${BASE}/${version}`,
    `mv ${incoming} ${BASE}/${version}`,
    `for d in ${BASE}/* ${BASE}/.incoming-*; do case "$d" in */${version}|*/${STATE}) ;; *) rm -rf "$d" ;; esac; done`,
  ].join('\n');
}

/**
 * Joins the channel's stdio to the remote part (started if none runs), whose shells are denied the
 * remote folder and `denied`, and which outlives a dropped link by `keepaliveS` seconds.
 */
export function startCommand(
  version: string,
  denied: readonly string[],
  keepaliveS: number,
): string {
  return cliCommand(version, denied, ['remote-part', '--keepalive-s', String(keepaliveS)]);
}

/**
 * Starts the remote part as startCommand would, if none runs, and prints its rendezvous (one JSON
 * line: the socket path and the token a link sends first) instead of relaying.
 */
export function rendezvousCommand(
  version: string,
  denied: readonly string[],
  keepaliveS: number,
): string {
  return cliCommand(version, denied, [
    'remote-part',
    '--keepalive-s',
    String(keepaliveS),
    '--rendezvous',
  ]);
}

/**
 * `mewbo ARGS` of the bundle `version`, in the remote home with the remote part's own $MEWBO_HOME,
 * its sandbox denying the remote folder and `denied`.
 */
function cliCommand(version: string, denied: readonly string[], args: readonly string[]): string {
  return [
    'cd "$HOME" &&',
    `MEWBO_HOME=${BASE}/${STATE}`,
    'exec node',
    `${BASE}/${version}/dist/cli.js`,
    shellCommand(args),
    '--deny',
    BASE,
    shellCommand(denied.flatMap((p) => ['--deny', p])),
  ].join(' ');
}

/**
 * Runs the project's `.mcp.json` server `name` on the channel's stdio (remote-mcp-server.ts),
 * confined with the remote folder and `denied` out of reach, if the file's SHA-256 is `sha256`.
 */
export function projectServerCommand(
  version: string,
  denied: readonly string[],
  root: string,
  name: string,
  sha256: string,
): string {
  return cliCommand(version, denied, [
    'remote-mcp',
    '--root',
    root,
    '--server',
    name,
    '--sha256',
    sha256,
  ]);
}
