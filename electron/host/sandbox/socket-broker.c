/*
 * The supervisor's half of the network confinement: a confined command's socket() for an
 * AF_INET/AF_INET6 stream reaches the supervisor as a seccomp user notification (seccomp-filter.c).
 * The supervisor makes the socket itself, with the family, type flags and protocol asked, binds it
 * to the loopback device (SO_BINDTODEVICE "lo": unprivileged on a socket not yet bound, since
 * Linux 5.7) and installs it in the command as the call's return value, atomically
 * (SECCOMP_IOCTL_NOTIF_ADDFD with SECCOMP_ADDFD_FLAG_SEND, Linux 5.14).
 *
 * Nothing is read from the command's memory (the three arguments are values in the
 * notification), so there is nothing it could change under the supervisor's feet. A socket bound
 * to loopback reaches no other host: IPv6 says ENETUNREACH, IPv4 sends the SYN into lo where it
 * is dropped as a martian (the connect waits for its timeout). It still reaches 127.0.0.0/8 and
 * ::1, and a listening one still accepts this machine's own connections (a dev server and the
 * user's browser). Which ports a connect may reach is Landlock's (CONNECT_TCP rules).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "launcher.h"

#define LOOPBACK "lo"
/* The probe's round trip is a fork and two system calls; longer than this, the kernel is broken. */
#define PROBE_TIMEOUT_MS 2000

int send_fd(int sock, int fd) {
  char byte = 'L';
  struct iovec iov = {.iov_base = &byte, .iov_len = 1};
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } u;
  memset(&u, 0, sizeof(u));
  struct msghdr msg = {
      .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf)};
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &fd, sizeof(int));
  ssize_t n;
  do n = sendmsg(sock, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == 1 ? 0 : -1;
}

/* The descriptor sent on `sock`, or -1 when the other end closed first (the child failed). */
int recv_fd(int sock) {
  char byte;
  struct iovec iov = {.iov_base = &byte, .iov_len = 1};
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } u;
  struct msghdr msg = {
      .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf)};
  ssize_t n;
  do n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n != 1) return -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(c), sizeof(int));
  return fd;
}

/* A loopback-bound socket for socket(domain, type, protocol), or -errno. */
static int loopback_socket(int domain, int type, int protocol) {
  int kind = type & 0xf, flags = type & ~0xf;
  if (domain != AF_INET && domain != AF_INET6) return -EAFNOSUPPORT;
  if (kind != SOCK_STREAM) return -EPERM;
  if (flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) return -EINVAL;
  /* TCP only: MPTCP and SCTP streams are not what Landlock's TCP rules govern. */
  if (protocol != 0 && protocol != IPPROTO_TCP) return -EPROTONOSUPPORT;
  int s = socket(domain, SOCK_STREAM | SOCK_CLOEXEC | (flags & SOCK_NONBLOCK), protocol);
  if (s < 0) return -errno;
  if (setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, LOOPBACK, sizeof(LOOPBACK) - 1) < 0) {
    /* Never hand out a socket that could route elsewhere. */
    int e = errno;
    close(s);
    return -(e == EPERM ? EACCES : e);
  }
  return s;
}

static size_t notif_size(void) {
  static size_t size;
  if (!size) {
    struct seccomp_notif_sizes sizes;
    size = sizeof(struct seccomp_notif);
    if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0 && sizes.seccomp_notif > size)
      size = sizes.seccomp_notif;
  }
  return size;
}

void answer_socket_request(int listener) {
  size_t size = notif_size();
  struct seccomp_notif *req = calloc(1, size);
  if (!req) return;
  /* The notification may be gone already (its caller was killed): ENOENT, nothing to answer. */
  if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0) {
    free(req);
    return;
  }
  __u64 id = req->id;
  int sock = -EPERM;
  if (req->data.nr == __NR_socket && ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0)
    sock = loopback_socket((int)req->data.args[0], (int)req->data.args[1], (int)req->data.args[2]);
  if (sock >= 0) {
    struct seccomp_notif_addfd add = {
        .id = id,
        .flags = SECCOMP_ADDFD_FLAG_SEND,
        .srcfd = (__u32)sock,
        .newfd = 0,
        .newfd_flags = ((int)req->data.args[1] & SOCK_CLOEXEC) ? O_CLOEXEC : 0,
    };
    int r = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
    int e = errno;
    close(sock);
    free(req);
    /* ENOENT: the caller is gone. Anything else (EMFILE: its table is full) is its answer. */
    if (r >= 0 || e == ENOENT) return;
    sock = -e;
  } else {
    free(req);
  }
  struct seccomp_notif_resp resp = {.id = id, .val = 0, .error = sock, .flags = 0};
  ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

/*
 * The whole round trip once, in a child, as a confined command would make it: the filter, the
 * listener passed over a socket pair, socket() answered with a loopback-bound socket.
 */
int probe_socket_broker(char *why, size_t len) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
    snprintf(why, len, "socketpair: %s", strerror(errno));
    return 0;
  }
  pid_t child = fork();
  if (child < 0) {
    snprintf(why, len, "fork: %s", strerror(errno));
    close(sv[0]);
    close(sv[1]);
    return 0;
  }
  if (child == 0) {
    close(sv[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) _exit(10);
    int listener = install_target_filter(1);
    if (listener < 0) _exit(11);
    if (send_fd(sv[1], listener) < 0) _exit(12);
    close(listener);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) _exit(13);
    char dev[16] = {0};
    socklen_t dlen = sizeof(dev);
    if (getsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, dev, &dlen) < 0 || strcmp(dev, LOOPBACK))
      _exit(14);
    _exit(0);
  }
  close(sv[1]);
  int listener = recv_fd(sv[0]);
  close(sv[0]);
  if (listener >= 0) {
    struct pollfd p = {.fd = listener, .events = POLLIN};
    if (poll(&p, 1, PROBE_TIMEOUT_MS) == 1 && (p.revents & POLLIN)) answer_socket_request(listener);
    close(listener);
  }
  int status = 0;
  if (listener < 0) kill(child, SIGKILL);
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 1;
  static const char *const steps[] = {"no_new_privs", "the seccomp listener", "passing the listener",
                                      "the brokered socket()", "the loopback binding"};
  int code = WIFEXITED(status) ? WEXITSTATUS(status) - 10 : -1;
  snprintf(why, len, "the kernel refused %s",
           code >= 0 && code < 5 ? steps[code] : "the seccomp notification round trip");
  return 0;
}
