import { EventEmitter } from 'node:events';
import { createConnection, type Socket } from 'node:net';
import { z } from 'zod';
import type { RemoteChannel } from './remote-client';
import { rendezvousCommand } from './remote-layout';
import type { SshTransport } from './ssh-transport';

// A link to the remote part that is the master connection's own forwarding (issue #29): the app
// asks the host for the daemon's rendezvous (remote-relay.ts rendezvous()), has the master forward
// a local socket to the daemon's, connects, and sends the token first as the relay would. A
// console's bytes then cross sshd, the TCP connection and the master only: the relay's copy on the
// host and the channel process's here are gone (over the same master, 64 MiB went 52-69 MiB/s
// through a channel and a relay, 159-190 MiB/s forwarded).

/**
 * What the host answers, checked before ssh sees it: an absolute path with no colon (`-L` would
 * read one as HOST:PORT and forward to a TCP port instead) and the token as the daemon writes it
 * (hex: anything else would break the line it is sent on). A host that answers otherwise gets
 * the relay.
 */
const rendezvousSchema = z.object({
  socket: z.string().regex(/^\/[^:\n]*$/),
  token: z.string().regex(/^[0-9a-f]+$/),
});

/** The channel of a link over a socket forwarded to the host's remote part; throws when none can be made. */
export async function forwardedChannel(
  ssh: SshTransport,
  version: string,
  denied: readonly string[],
  keepaliveS: number,
): Promise<RemoteChannel> {
  const answer = await ssh.exec(rendezvousCommand(version, denied, keepaliveS));
  const line = answer.stdout.toString('utf8').trim().split('\n').at(-1) ?? '';
  const parsed = rendezvousSchema.safeParse(parseJson(line));
  if (answer.code !== 0 || !parsed.success)
    throw new Error(`no rendezvous from the remote part: ${answer.stderr.trim() || line}`);
  const local = await ssh.forwardSocket(parsed.data.socket);
  const socket = await connect(local);
  socket.write(`${parsed.data.token}\n`);
  return socketChannel(socket);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** The socket as RemoteClient takes a channel: both directions on it, no stderr. */
function socketChannel(socket: Socket): RemoteChannel {
  const channel = Object.assign(new EventEmitter(), {
    stdin: socket,
    stdout: socket,
    stderr: null,
    kill: () => {
      socket.destroy();
      return true;
    },
  });
  socket.once('close', () => channel.emit('close', null, null));
  return channel;
}
