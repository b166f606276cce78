import type { RemoteTools } from './remote-tools';

// Where the app reads the files of a session's project that it obeys or shows the model (its
// instructions, settings with rules and hooks, skills, commands, `.mcp.json`): the project's
// folder, or for a project on an SSH host the app's copy of those files, fetched from the host
// at this very call (remote-project-mirror.ts), never a local folder that happens to have the
// remote path's name.

export async function policyRootOf(
  remote: RemoteTools | undefined,
  sessionId: string,
  root: string,
): Promise<string>;
export async function policyRootOf(
  remote: RemoteTools | undefined,
  sessionId: string,
  root: string | null,
): Promise<string | null>;
export async function policyRootOf(
  remote: RemoteTools | undefined,
  sessionId: string,
  root: string | null,
): Promise<string | null> {
  const url = root !== null && remote ? await remote.remoteOf(sessionId) : null;
  return url && remote ? remote.policyRoot(url) : root;
}
