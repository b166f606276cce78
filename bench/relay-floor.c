/*
 * The least a relaying proxy does, as a floor for the sandbox-proxy bench: accept a connection on
 * 127.0.0.1, connect to the target port on the target address, and copy each direction with
 * read(2)/write(2) through a 1 MiB buffer on a thread of its own. No parsing, no policy, no event
 * loop: what is left is the cost of the two extra copies every byte pays through any relay.
 * `relay-floor TARGET_ADDR TARGET_PORT` prints its own port, then serves until killed.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

struct pump {
  int from, to;
};

static void *copy(void *arg) {
  struct pump *p = arg;
  char *buf = malloc(1 << 20);
  for (;;) {
    ssize_t n = read(p->from, buf, 1 << 20);
    if (n <= 0) break;
    for (char *q = buf; n > 0;) {
      ssize_t m = write(p->to, q, (size_t)n);
      if (m <= 0) goto out;
      q += m;
      n -= m;
    }
  }
out:
  shutdown(p->to, SHUT_WR);
  free(buf);
  free(p);
  return NULL;
}

static void start(int from, int to) {
  struct pump *p = malloc(sizeof *p);
  p->from = from;
  p->to = to;
  pthread_t t;
  pthread_create(&t, NULL, copy, p);
  pthread_detach(t);
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  struct sockaddr_in target = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2]))};
  if (inet_pton(AF_INET, argv[1], &target.sin_addr) != 1) return 2;
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in self = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof self;
  if (bind(s, (void *)&self, sizeof self) || listen(s, 16) || getsockname(s, (void *)&self, &len))
    return 1;
  printf("%d\n", ntohs(self.sin_port));
  fflush(stdout);
  for (;;) {
    int c = accept(s, NULL, NULL);
    if (c < 0) continue;
    int u = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(u, (void *)&target, sizeof target)) {
      close(c);
      close(u);
      continue;
    }
    start(c, u);
    start(u, c);
  }
}
