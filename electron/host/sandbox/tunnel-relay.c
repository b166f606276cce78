/*
 * The download half of an egress-proxy tunnel, moved by the kernel (`mewbo-landlock --relay`).
 *
 * The proxy (electron/host/network/egress-proxy.ts) relays a CONNECT tunnel itself at first; once
 * the destination has sent RELAY_HANDOFF_BYTES it stops reading the destination, lets its last
 * write to the client finish, and starts this with the client's socket as fd 3 and the
 * destination's as fd 4. From then on the bytes go destination -> pipe -> client with splice(2):
 * no copy into any process, where the proxy's own relay copied every byte in and out of the host
 * (two copies per byte on a 2-core machine that also runs the server and the client: the
 * download ran at about 0.6 of a direct one). The upload half stays with the proxy, which keeps
 * reading the client and writing the destination: each direction of each socket has one owner.
 *
 * The sockets are non-blocking (the proxy's; the flag lives in the shared file description), so
 * the loop waits with poll. When the destination ends, the client's write side is shut (the
 * proxy's half-close, as before) and the relay exits 0; a failure on either socket exits 1. It
 * never reads the client and never writes the destination.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "launcher.h"

#define CLIENT_FD 3
#define DESTINATION_FD 4
/* A pipe this large holds what a loopback socket gives in one wake-up; the kernel may refuse
 * (fs.pipe-max-size), and the default 64 KiB pipe still works, with more system calls. */
#define PIPE_BYTES (1 << 20)

/* Waits until `fd` is ready for `events`; -1 when `watched` (the client, while waiting to read
 * the destination) failed or hung up, so a client that went away does not hold the relay. */
static int wait_for(int fd, short events, int watched) {
  struct pollfd p[2] = {{.fd = fd, .events = events}, {.fd = watched, .events = 0}};
  for (;;) {
    if (poll(p, watched >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (watched >= 0 && (p[1].revents & (POLLERR | POLLHUP | POLLNVAL))) return -1;
    if (p[0].revents) return 0;
  }
}

/* Moves `len` bytes from the pipe to the client. */
static int drain(int pipe_out, size_t len) {
  while (len > 0) {
    ssize_t n = splice(pipe_out, NULL, CLIENT_FD, NULL, len, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0) {
      len -= (size_t)n;
    } else if (n < 0 && errno == EAGAIN) {
      if (wait_for(CLIENT_FD, POLLOUT, -1)) return -1;
    } else if (!(n < 0 && errno == EINTR)) {
      return -1;
    }
  }
  return 0;
}

int relay_tunnel(void) {
  /* A client gone mid-write is an EPIPE to handle, not a signal that kills the relay silently. */
  signal(SIGPIPE, SIG_IGN);
  /* The host's tunnels end with the host. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  int p[2];
  if (pipe2(p, O_CLOEXEC | O_NONBLOCK)) return 1;
  int room = fcntl(p[1], F_SETPIPE_SZ, PIPE_BYTES);
  size_t chunk = room > 0 ? (size_t)room : 65536;
  for (;;) {
    ssize_t n = splice(DESTINATION_FD, NULL, p[1], NULL, chunk, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0) {
      if (drain(p[0], (size_t)n)) return 1;
    } else if (n == 0) {
      return shutdown(CLIENT_FD, SHUT_WR) ? 1 : 0;
    } else if (errno == EAGAIN) {
      if (wait_for(DESTINATION_FD, POLLIN, CLIENT_FD)) return 1;
    } else if (errno != EINTR) {
      return 1;
    }
  }
}
