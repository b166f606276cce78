/*
 * Files the host runs or obeys as policy (.mewbo/, .claude/, .mcp.json, .git/hooks/, .git/config)
 * made read-only to a confined command, although the project around them is writable.
 *
 * Landlock cannot say it: it only grants, and a right on a directory covers its whole subtree.
 * So the command gets a private mount namespace (as root unshare(CLONE_NEWNS); otherwise a user
 * namespace too, mapping the user's uid and gid to themselves) in which each held path is bound
 * onto itself read-only. Each directory between the project root and a held path (the root and
 * .git), is first bound onto itself writable ("pinned"): the kernel refuses to rename or remove a
 * mountpoint (EBUSY), whereas a directory merely holding one can be renamed away and recreated.
 * Landlock then forbids the command any mount or umount, and without capabilities it could not
 * anyway. Nothing propagates to the host: every mount is made private first.
 *
 * Paths are opened with RESOLVE_NO_SYMLINKS and bound through that descriptor with the new mount
 * API (open_tree, mount_setattr, move_mount; Linux 5.12), so a symlink planted anywhere on the way
 * is refused instead of followed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "launcher.h"

#ifndef __NR_open_tree
#define __NR_open_tree 428
#define __NR_move_mount 429
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

static int write_text(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, text, strlen(text));
  int e = errno;
  close(fd);
  errno = e;
  return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int set_attr(int dfd, const char *path, unsigned flags, struct mount_attr *attr) {
  return (int)syscall(__NR_mount_setattr, dfd, path, flags, attr, sizeof(*attr));
}

int make_mount_namespace(char *why, size_t len) {
  if (unshare(CLONE_NEWNS) < 0) {
    if (errno != EPERM) {
      snprintf(why, len, "cannot make a mount namespace: %s", strerror(errno));
      return -1;
    }
    char map[64];
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
      snprintf(why, len, "no mount namespace: user namespaces are not available to this user (%s)",
               strerror(errno));
      return -1;
    }
    snprintf(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
    int bad = write_text("/proc/self/setgroups", "deny") < 0 && errno != ENOENT;
    bad = bad || write_text("/proc/self/uid_map", map) < 0;
    snprintf(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
    if (bad || write_text("/proc/self/gid_map", map) < 0) {
      snprintf(why, len, "cannot map the user into its namespace: %s", strerror(errno));
      return -1;
    }
  }
  struct mount_attr private_ = {.propagation = MS_PRIVATE};
  if (set_attr(AT_FDCWD, "/", AT_RECURSIVE, &private_) < 0) {
    snprintf(why, len, "cannot make the mounts private: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* Binds `path` onto itself (read-only when asked); 0, or -1 with errno. */
static int bind_onto_itself(const char *path, int readonly) {
  struct open_how how = {
      .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
  int fd = (int)syscall(__NR_openat2, AT_FDCWD, path, &how, sizeof(how));
  if (fd < 0) return -1;
  int tree = (int)syscall(__NR_open_tree, fd, "",
                          OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
  int r = tree < 0 ? -1 : 0;
  if (r == 0 && readonly) {
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
    r = set_attr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &ro);
  }
  if (r == 0)
    r = (int)syscall(__NR_move_mount, tree, "", fd, "",
                     MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
  int e = errno;
  if (tree >= 0) close(tree);
  close(fd);
  errno = e;
  return r;
}

void hold_paths(const struct held_paths *h) {
  for (size_t i = 0; i < h->npins + h->nholds; i++) {
    int pin = i < h->npins;
    const char *path = pin ? h->pins[i] : h->holds[i - h->npins];
    if (bind_onto_itself(path, !pin) == 0 || errno == ENOENT) continue;
    fprintf(stderr, "%s: not held %s: %s\n", prog, path,
            errno == ELOOP ? "a symbolic link on its way" : strerror(errno));
  }
}

int probe_mount_namespace(char *why, size_t len) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) < 0) {
    snprintf(why, len, "pipe: %s", strerror(errno));
    return 0;
  }
  pid_t child = fork();
  if (child < 0) {
    snprintf(why, len, "fork: %s", strerror(errno));
    return 0;
  }
  if (child == 0) {
    close(pipefd[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    char reason[256] = "";
    if (make_mount_namespace(reason, sizeof(reason)) == 0 && bind_onto_itself("/tmp", 1) < 0)
      snprintf(reason, sizeof(reason), "cannot bind a path onto itself read-only: %s",
               strerror(errno));
    if (reason[0] && write(pipefd[1], reason, strlen(reason)) < 0) _exit(2);
    _exit(reason[0] ? 1 : 0);
  }
  close(pipefd[1]);
  ssize_t n = read(pipefd[0], why, len - 1);
  close(pipefd[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 1;
  if (n <= 0) snprintf(why, len, "the mount namespace probe failed");
  else why[n] = '\0';
  return 0;
}
