/*
 * What the launcher's parts (landlock-launcher.c, seccomp-filter.c, socket-broker.c,
 * policy-mounts.c) share. build/build-landlock.mjs compiles every .c file of this folder into one
 * binary.
 */
#ifndef MEWBO_LAUNCHER_H
#define MEWBO_LAUNCHER_H

#include <stddef.h>

#define EXIT_REFUSED 125
#define EXIT_CANNOT_EXEC 126
#define EXIT_NOT_FOUND 127

extern const char *prog;

/* seccomp-filter.c: installs the confined command's filter (see there). With `net`, socket() of
 * AF_INET/AF_INET6 streams goes to a listener: its fd is returned (else 0); -1 on failure. */
int install_target_filter(int net);

/* socket-broker.c: the supervisor's side of the network confinement. */
int send_fd(int sock, int fd);
int recv_fd(int sock);
/* Answers one pending notification on the listener: a loopback-bound socket, or an error. */
void answer_socket_request(int listener);
/* 1 when a confined command's sockets can be brokered here, else 0 with `why` filled. */
int probe_socket_broker(char *why, size_t len);

/* policy-mounts.c: paths held by bind mounts in a private mount namespace. */
struct held_paths {
  const char **pins; /* bound onto themselves: cannot be renamed or removed, stay writable */
  size_t npins;
  const char **holds; /* bound onto themselves read-only */
  size_t nholds;
};
/* A private mount namespace (a user namespace too when not root); -1 with `why` filled. */
int make_mount_namespace(char *why, size_t len);
/* Pins, then holds, each in order; a path that cannot be held is reported on stderr. */
void hold_paths(const struct held_paths *h);
/* 1 when paths can be held here, else 0 with `why` filled (run in a child: it changes namespaces). */
int probe_mount_namespace(char *why, size_t len);

#endif
