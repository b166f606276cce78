import { methods, type AgentContext, type ClientCapabilities } from '@agentclientprotocol/sdk';
import type { EditorFiles } from '../../tools/editor-files';
import { clientErrorText } from './client-error';
import { CLIENT_FS_TIMEOUT_MS } from './constants';

// The editor's files for the app's tools (`mewbo acp`), as far as the client offers fs/*: the
// tools ask only after their own checks passed. read_file reads the disk when the editor has no
// answer (an error, no reply in time, the turn ended), so a client can add its unsaved text but
// never widen what the agent may read; an edit the editor does not take fails with its reason.

export function clientEditorFiles(
  client: AgentContext,
  fs: ClientCapabilities['fs'],
  sessionId: string,
  turnEnded: AbortSignal,
): EditorFiles | undefined {
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  const options = () => ({
    cancellationSignal: AbortSignal.any([turnEnded, AbortSignal.timeout(CLIENT_FS_TIMEOUT_MS)]),
    stopWaitingOnCancel: true,
  });
  return {
    ...(fs.readTextFile
      ? {
          readText: (abs: string) =>
            client
              .request(methods.client.fs.readTextFile, { sessionId, path: abs }, options())
              .then(
                (r) => r.content,
                () => null,
              ),
        }
      : {}),
    ...(fs.writeTextFile
      ? {
          writeText: async (abs: string, content: string) => {
            await client
              .request(
                methods.client.fs.writeTextFile,
                { sessionId, path: abs, content },
                options(),
              )
              .catch((err: unknown) => {
                throw new Error(clientErrorText(err), { cause: err });
              });
          },
        }
      : {}),
  };
}
