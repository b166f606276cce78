/*
 * mewbo-landlock: starts one shell command for the host, optionally under Landlock, and
 * supervises its whole process tree.
 *
 *   mewbo-landlock --probe
 *       prints {"abi":N,"net":B,"mount_ns":B} (N = 0 when the kernel has no Landlock, with "errno"
 *       and "reason"; "net_reason" / "mount_ns_reason" when B is false: why the network cannot be
 *       confined, why policy files cannot be held read-only).
 *   mewbo-landlock [--rules-fd FD | --rules-stdin LEN] [--ctty] [--host-pid PID]
 *                  [--grace-ms MS] [--merge-stderr] [--stdin-null] [--detach-tty]
 *                  -- PROGRAM [ARGS...]
 *
 * Why a separate process: Landlock applies to a thread and its future children, so it must be
 * applied between fork and exec, which Node cannot do. The launcher stays outside the sandbox as
 * the tree's supervisor: it is a child subreaper (orphans of the command reparent to it, so a
 * double-forked or setsid'd background job is still found), and it kills every descendant when
 * asked (SIGTERM, then SIGKILL after the grace period), when the command exits and leaves
 * processes behind, and when the host dies (PR_SET_PDEATHSIG, a hangup of the PTY, or its parent
 * changing). Only then does it exit, with the command's status. On a terminal it keeps the
 * terminal open while the host has paused reading it (SIGUSR1 .. SIGUSR2, see MAX_LINGER_MS).
 * With the network confined it also answers the command's socket() calls (socket-broker.c).
 *
 * Rules (grant-plan.ts writes them): NUL-terminated records, handed over an inherited descriptor
 * and never a path, so no confined command can rewrite the rules a later command starts under:
 * --rules-fd reads a pipe to its end (shells), --rules-stdin reads exactly LEN bytes off stdin
 * before the program gets it (servers, whose stdio the host's client library owns).
 *   "HEXMASK PATH"  grants the Landlock access rights MASK beneath PATH. Every right of the
 *                   probed ABI is handled; Landlock only grants, so the host has already turned
 *                   its deny list into these grants.
 *   "net"           confines the network: TCP connect is a handled right (Landlock ABI 4+), and
 *                   socket() goes through the supervisor (seccomp-filter.c, socket-broker.c).
 *                   Without it the network is open, as before.
 *   "port N"        allows TCP connect to port N (1-65535, decimal); only with "net".
 *   "pin PATH"      binds PATH onto itself in a private mount namespace: it cannot be renamed
 *                   or removed (policy-mounts.c). Parents come before their children.
 *   "hold PATH"     binds PATH onto itself read-only, after every pin.
 * A record the launcher does not know refuses the run: it never runs under less than it was
 * told. The keywords hold letters no hex mask has.
 *
 * --ctty makes stdin (a PTY slave the host opened) the controlling terminal, as forkpty would.
 *
 * Exit codes of its own: 125 sandbox refused (never runs unconfined), 126 cannot execute,
 * 127 not found, 2 bad usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "launcher.h"

/* Landlock's ABI, spelled out here because distribution headers lag the running kernel. */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)
/* The first ABI with network rules, and the first with scopes. */
#define LL_ABI_NET 4
#define LL_ABI_SCOPE 6

#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_REFER (1ULL << 13)
#define FS_TRUNCATE (1ULL << 14)
#define FS_IOCTL_DEV (1ULL << 15)
/* Rights that make sense on a file (anything else is EINVAL on a non-directory). */
#define FS_FILE_RIGHTS (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)

struct ll_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};
struct ll_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));
struct ll_net_port_attr {
  uint64_t allowed_access;
  uint64_t port;
} __attribute__((packed));

/* Largest rules file accepted: a plan is a few hundred paths; this bounds a corrupt one. */
#define MAX_RULES_BYTES (16 * 1024 * 1024)
/* Most pins and holds one plan may carry: the host sends a handful. */
#define MAX_HELD 64
/* How often the supervisor looks at its parent and deadlines while nothing else happens. */
#define IDLE_TICK_MS 500
#define BUSY_TICK_MS 20
/* Output still in the kernel when a PTY closes can be lost to a reader that is behind. So on a
 * terminal the launcher keeps it open a moment after the tree is done, and while the host says
 * it has paused reading (SIGUSR1, until SIGUSR2 once it has drained), up to the maximum. */
#define MIN_LINGER_MS 50
#define MAX_LINGER_MS 5000

const char *prog = "mewbo-landlock";

static long ll_create(const struct ll_ruleset_attr *attr, size_t size, uint32_t flags) {
  return syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

/* Rights each ABI version knows; requesting more is EINVAL, so the ruleset is masked to this. */
static uint64_t fs_rights_for_abi(long abi) {
  uint64_t rights = (1ULL << 13) - 1; /* ABI 1: execute .. make_sym */
  if (abi >= 2) rights |= FS_REFER;
  if (abi >= 3) rights |= FS_TRUNCATE;
  if (abi >= 5) rights |= FS_IOCTL_DEV;
  return rights;
}

/* Prints `"key":"text"` with the text's quotes and backslashes escaped (reasons hold strerror). */
static void json_text(const char *key, const char *text) {
  printf(",\"%s\":\"", key);
  for (const char *c = text; *c; c++) {
    if (*c == '"' || *c == '\\') putchar('\\');
    putchar((unsigned char)*c < 0x20 ? ' ' : *c);
  }
  putchar('"');
}

static int probe(void) {
  long abi = ll_create(NULL, 0, LL_CREATE_RULESET_VERSION);
  if (abi < 0) {
    int e = errno;
    const char *why = e == ENOSYS       ? "the kernel was built without Landlock"
                      : e == EOPNOTSUPP ? "Landlock is disabled at boot (not in the lsm= list)"
                                        : strerror(e);
    printf("{\"abi\":0,\"errno\":\"%s\",\"reason\":\"%s\"}\n",
           e == ENOSYS ? "ENOSYS" : e == EOPNOTSUPP ? "EOPNOTSUPP" : "other", why);
    return 0;
  }
  char net_why[256] = "", mount_why[256] = "";
  int net = abi >= LL_ABI_NET;
  if (!net)
    snprintf(net_why, sizeof(net_why),
             "Landlock ABI %ld has no network rules (they need ABI %d, Linux 6.7)", abi,
             LL_ABI_NET);
  else
    net = probe_socket_broker(net_why, sizeof(net_why));
  int mount_ns = probe_mount_namespace(mount_why, sizeof(mount_why));
  printf("{\"abi\":%ld,\"net\":%s,\"mount_ns\":%s", abi, net ? "true" : "false",
         mount_ns ? "true" : "false");
  if (!net) json_text("net_reason", net_why);
  if (!mount_ns) json_text("mount_ns_reason", mount_why);
  printf("}\n");
  return 0;
}

/*
 * Reads the rules from an inherited descriptor, never a path: a file a confined command can name,
 * it can rewrite before the next command reads it. `exact` < 0 reads to EOF (a pipe the host
 * closes after writing); otherwise exactly that many bytes and not one more, because the
 * descriptor is the command's stdin and what follows the rules belongs to it.
 */
static char *read_rules(int fd, long exact, size_t *len) {
  size_t cap = exact >= 0 ? (size_t)exact : 65536, got = 0;
  if (exact > MAX_RULES_BYTES) {
    errno = EFBIG;
    return NULL;
  }
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t want = exact >= 0 ? (size_t)exact - got : cap - got;
    if (exact >= 0 && want == 0) break;
    ssize_t n = read(fd, buf + got, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      free(buf);
      return NULL;
    }
    if (n == 0) {
      if (exact >= 0) {
        free(buf);
        errno = EPIPE; /* the host promised more than it sent */
        return NULL;
      }
      break;
    }
    got += (size_t)n;
    if (exact < 0 && got == cap) {
      if (cap >= MAX_RULES_BYTES) {
        free(buf);
        errno = EFBIG;
        return NULL;
      }
      char *grown = realloc(buf, cap * 2 + 1);
      if (!grown) free(buf);
      buf = grown;
      cap *= 2;
    }
  }
  if (!buf) return NULL;
  buf[got] = '\0';
  *len = got;
  return buf;
}

/* What one confined run is under: the Landlock ruleset, the network switch, the held paths. */
struct plan {
  int ruleset; /* -1: unconfined */
  int net;
  const char *pins[MAX_HELD], *holds[MAX_HELD];
  struct held_paths held;
};

static int refuse(const char *what, const char *detail) {
  fprintf(stderr, "%s: ruleset refused: %s%s%s; not running unconfined\n", prog, what,
          detail ? ": " : "", detail ? detail : "");
  return -1;
}

/* `word ARG` when `record` starts with the keyword `word` and a space: ARG, else NULL. */
static const char *keyword(const char *record, const char *word) {
  size_t n = strlen(word);
  return strncmp(record, word, n) == 0 && record[n] == ' ' ? record + n + 1 : NULL;
}

static void grant_path(int ruleset, uint64_t mask, const char *path) {
  /* O_NOFOLLOW: the plan names real paths; a path that became a symlink since is dropped. */
  int fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  if (fd < 0 && errno == ENOENT) return; /* gone since the plan: nothing left to grant */
  if (fd < 0 || fstat(fd, &st) < 0 || S_ISLNK(st.st_mode)) {
    fprintf(stderr, "%s: dropped grant %s: %s\n", prog, path, fd < 0 ? strerror(errno) : "symlink");
    if (fd >= 0) close(fd);
    return;
  }
  if (!S_ISDIR(st.st_mode)) mask &= FS_FILE_RIGHTS;
  struct ll_path_beneath_attr beneath = {.allowed_access = mask, .parent_fd = fd};
  if (mask && syscall(__NR_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &beneath, 0) < 0)
    fprintf(stderr, "%s: dropped grant %s: %s\n", prog, path, strerror(errno));
  close(fd);
}

/* Checks every record and fills `p` (pins and holds point into `rules`); -1 after saying why. */
static int parse_records(char *rules, size_t len, struct plan *p, int ruleset, uint64_t handled) {
  for (size_t at = 0; at < len;) {
    char *record = rules + at;
    size_t rlen = strnlen(record, len - at);
    at += rlen + 1;
    if (rlen == 0) continue;
    const char *arg;
    if (strcmp(record, "net") == 0) {
      p->net = 1;
    } else if ((arg = keyword(record, "port"))) {
      char *end;
      unsigned long port = strtoul(arg, &end, 10);
      if (*arg < '0' || *arg > '9' || *end || port < 1 || port > 65535)
        return refuse("not a TCP port", record);
      struct ll_net_port_attr rule = {.allowed_access = LL_NET_CONNECT_TCP, .port = port};
      if (ruleset >= 0 && syscall(__NR_landlock_add_rule, ruleset, LL_RULE_NET_PORT, &rule, 0) < 0)
        return refuse("landlock_add_rule (port)", strerror(errno));
    } else if ((arg = keyword(record, "pin")) || (arg = keyword(record, "hold"))) {
      int pin = record[0] == 'p';
      size_t *n = pin ? &p->held.npins : &p->held.nholds;
      if (*n >= MAX_HELD) return refuse("too many held paths", record);
      (pin ? p->pins : p->holds)[(*n)++] = arg;
    } else {
      char *space = strchr(record, ' ');
      char *end;
      uint64_t mask = space ? strtoull(record, &end, 16) : 0;
      if (!space || end != space || space == record) return refuse("malformed rule record", NULL);
      if (ruleset >= 0) grant_path(ruleset, mask & handled, space + 1);
    }
  }
  return 0;
}

/* Reads and applies the rules; 0, or -1 after printing why (the caller refuses to run). */
static int build_plan(int rules_fd, long rules_len, struct plan *p) {
  p->held = (struct held_paths){.pins = p->pins, .holds = p->holds};
  long abi = ll_create(NULL, 0, LL_CREATE_RULESET_VERSION);
  if (abi < 1) return refuse("Landlock unavailable", strerror(errno));
  size_t len = 0;
  char *rules = read_rules(rules_fd, rules_len, &len);
  if (rules_len < 0) close(rules_fd); /* a rules pipe: nothing after the rules */
  if (!rules) {
    fprintf(stderr, "%s: ruleset refused: cannot read rules from fd %d (%s)\n", prog, rules_fd,
            strerror(errno));
    return -1;
  }
  /* A first pass says whether the network is handled, which the ruleset must know at birth. */
  if (parse_records(rules, len, p, -1, 0) < 0) return -1;
  if (p->net && abi < LL_ABI_NET) return refuse("no network rules in this kernel's Landlock", NULL);
  uint64_t handled = fs_rights_for_abi(abi);
  struct ll_ruleset_attr attr = {.handled_access_fs = handled};
  size_t attr_size = sizeof(uint64_t);
  if (p->net) {
    attr.handled_access_net = LL_NET_CONNECT_TCP; /* not BIND_TCP: dev servers still listen */
    attr_size = 2 * sizeof(uint64_t);
  }
  if (abi >= LL_ABI_SCOPE) {
    /* A sandboxed command may not signal processes outside it (the supervisor, the host), nor
     * connect to an abstract unix socket one of them listens on. */
    attr.scoped = LL_SCOPE_SIGNAL | LL_SCOPE_ABSTRACT_UNIX_SOCKET;
    attr_size = sizeof(attr);
  }
  p->ruleset = (int)ll_create(&attr, attr_size, 0);
  if (p->ruleset < 0) return refuse("landlock_create_ruleset", strerror(errno));
  struct plan again = {.ruleset = p->ruleset};
  again.held = (struct held_paths){.pins = again.pins, .holds = again.holds};
  if (parse_records(rules, len, &again, p->ruleset, handled) < 0) {
    close(p->ruleset);
    return -1;
  }
  /* `rules` stays allocated: the pins and holds point into it until exec. */
  return 0;
}

/* Every capability goes, also when the app runs as root: the bounding set (so no exec regains
 * one), the ambient and inheritable sets, then permitted and effective. Securebits first (they
 * need CAP_SETPCAP): uid 0 gains nothing at exec, and that cannot be undone. */
static void drop_all_caps(void) {
  prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                               SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
                               SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
        0, 0, 0);
  for (int cap = 0; cap <= 63; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof(data));
  syscall(SYS_capset, &hdr, data);
}

/* Bounds: no core dumps (a crashing command's memory may hold what it read), and a process count
 * over what the user runs now, so a fork bomb stops short of starving the machine. The kernel
 * does not apply RLIMIT_NPROC to uid 0, so where a pids cgroup is writable (as root it is) the
 * command's whole tree also goes into a cgroup of its own holding at most NPROC_HEADROOM. */
#define NPROC_HEADROOM 2048

/* The pids cgroup a launcher's command runs in, named after the command's pid: cgroup v1's pids
 * hierarchy, else v2's unified one. Returns 0 and fills `out` when the hierarchy exists. */
static int pids_cgroup_path(pid_t pid, char *out, size_t len) {
  struct stat st;
  if (stat("/sys/fs/cgroup/pids", &st) == 0 && S_ISDIR(st.st_mode)) {
    snprintf(out, len, "/sys/fs/cgroup/pids/mewbo-shell-%ld", (long)pid);
    return 0;
  }
  if (stat("/sys/fs/cgroup/cgroup.controllers", &st) == 0) {
    snprintf(out, len, "/sys/fs/cgroup/mewbo-shell-%ld", (long)pid);
    return 0;
  }
  return -1;
}

static int write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, text, strlen(text));
  close(fd);
  return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Best effort: a user who may not create cgroups keeps the RLIMIT_NPROC bound alone. */
static void join_pids_cgroup(void) {
  char dir[256], file[300], max[32];
  if (pids_cgroup_path(getpid(), dir, sizeof(dir)) < 0) return;
  if (mkdir(dir, 0700) < 0 && errno != EEXIST) return;
  snprintf(file, sizeof(file), "%s/pids.max", dir);
  snprintf(max, sizeof(max), "%d", NPROC_HEADROOM);
  if (write_file(file, max) < 0) {
    rmdir(dir);
    return;
  }
  snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
  if (write_file(file, "0") < 0) rmdir(dir);
}

/* Once the command's tree is gone its cgroup is empty: remove it (the supervisor is not in it). */
static void release_pids_cgroup(pid_t child) {
  char dir[256];
  if (pids_cgroup_path(child, dir, sizeof(dir)) == 0) rmdir(dir);
}

static void set_limits(void) {
  join_pids_cgroup();
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  uid_t uid = getuid();
  long mine = 0;
  DIR *dir = opendir("/proc");
  struct dirent *de;
  while (dir && (de = readdir(dir))) {
    struct stat st;
    char path[300];
    if (!isdigit((unsigned char)de->d_name[0])) continue;
    snprintf(path, sizeof(path), "/proc/%s", de->d_name);
    if (stat(path, &st) == 0 && st.st_uid == uid) mine++;
  }
  if (dir) closedir(dir);
  struct rlimit nproc;
  if (getrlimit(RLIMIT_NPROC, &nproc) == 0) {
    rlim_t want = (rlim_t)(mine + NPROC_HEADROOM);
    if (nproc.rlim_max != RLIM_INFINITY && want > nproc.rlim_max) want = nproc.rlim_max;
    if (nproc.rlim_cur == RLIM_INFINITY || want < nproc.rlim_cur) nproc.rlim_cur = want;
    setrlimit(RLIMIT_NPROC, &nproc);
  }
}

static void close_inherited_fds(void) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
  for (int fd = 3; fd < 4096; fd++) close(fd);
}

/* ---- the supervised tree ---- */

struct proc_entry {
  pid_t pid, ppid;
  char state;
};

/* Every live descendant of this process, from /proc (our children's children included). */
static size_t list_descendants(pid_t *out, size_t cap) {
  size_t n = 0, room = 256;
  struct proc_entry *all = malloc(room * sizeof(*all));
  DIR *dir = opendir("/proc");
  if (!dir || !all) {
    if (dir) closedir(dir);
    free(all);
    return 0;
  }
  struct dirent *de;
  while ((de = readdir(dir))) {
    if (!isdigit((unsigned char)de->d_name[0])) continue;
    char path[300], buf[512];
    snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (len <= 0) continue;
    buf[len] = '\0';
    char *paren = strrchr(buf, ')'); /* the command name may itself contain ')' or spaces */
    if (!paren || paren[1] == '\0') continue;
    char state = 0;
    int ppid = 0;
    if (sscanf(paren + 2, "%c %d", &state, &ppid) != 2) continue;
    if (n == room) {
      room *= 2;
      struct proc_entry *grown = realloc(all, room * sizeof(*all));
      if (!grown) break;
      all = grown;
    }
    all[n++] = (struct proc_entry){.pid = atoi(de->d_name), .ppid = ppid, .state = state};
  }
  closedir(dir);
  size_t found = 0;
  pid_t self = getpid();
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < n; i++) {
      if (all[i].pid == 0) continue;
      int parent_known = all[i].ppid == self;
      for (size_t j = 0; !parent_known && j < found; j++) parent_known = out[j] == all[i].ppid;
      if (!parent_known) continue;
      if (found < cap) out[found++] = all[i].pid;
      all[i].pid = 0; /* taken */
      changed = 1;
    }
  }
  free(all);
  return found;
}

#define MAX_TREE 8192
static pid_t tree[MAX_TREE];

static size_t signal_tree(int sig) {
  size_t n = list_descendants(tree, MAX_TREE);
  for (size_t i = 0; i < n; i++) kill(tree[i], sig);
  return n;
}

static long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void exit_like(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none); /* re-raising SIGSEGV must not dump the launcher's core */
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
  }
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

struct options {
  int rules_fd; /* -1: no sandbox */
  long rules_len; /* -1: read rules_fd to its end */
  int ctty;
  pid_t host_pid;
  long grace_ms;
  int merge_stderr, stdin_null, detach_tty;
  int tty_out; /* stdout is a terminal: the host reads it through a PTY it may pause */
  char **argv;
};

/* In the child, before exec: the held paths, then no capabilities, Landlock, the filter. */
static void confine(const struct plan *p, int broker) {
  pid_t supervisor = getppid();
  set_limits();
  if (p->held.npins + p->held.nholds > 0) {
    char why[256];
    if (make_mount_namespace(why, sizeof(why)) < 0) {
      refuse("policy files cannot be held read-only", why);
      _exit(EXIT_REFUSED);
    }
    hold_paths(&p->held);
    /* The working directory was looked up before the mounts: look it up again, so paths relative
     * to it cross the mounts too (a shell in the project root writing .git/hooks/x). */
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof(cwd)) && chdir(cwd) < 0) {
      refuse("cannot re-enter the working directory", strerror(errno));
      _exit(EXIT_REFUSED);
    }
  }
  drop_all_caps();
  /* A new user namespace or the capability change may have cleared the parent-death signal. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != supervisor) _exit(EXIT_REFUSED);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
      syscall(__NR_landlock_restrict_self, p->ruleset, 0) < 0) {
    refuse("landlock_restrict_self", strerror(errno));
    _exit(EXIT_REFUSED);
  }
  int listener = install_target_filter(p->net);
  if (listener < 0) {
    refuse("seccomp", strerror(errno));
    _exit(EXIT_REFUSED);
  }
  if (p->net) {
    if (send_fd(broker, listener) < 0) {
      refuse("cannot hand the socket listener to the supervisor", strerror(errno));
      _exit(EXIT_REFUSED);
    }
    close(listener);
    close(broker);
  }
}

static void run_child(const struct options *o, const struct plan *p, int broker,
                      const sigset_t *blocked) {
  sigprocmask(SIG_UNBLOCK, blocked, NULL);
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* if the supervisor dies, the shell goes with it */
  if (o->detach_tty) {
    setsid(); /* no controlling terminal: /dev/tty prompts fail at once */
    /* The terminal stays the output, but write-only: a pager that falls back to reading keys
     * from stderr (less does) gets an error instead of waiting. */
    const char *tty = ttyname(1);
    int out = tty ? open(tty, O_WRONLY | O_NOCTTY) : -1;
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
      if (out > 2) close(out);
    }
  }
  if (o->stdin_null) {
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0 && null != 0) {
      dup2(null, 0);
      close(null);
    }
  }
  if (o->merge_stderr) dup2(1, 2);
  if (p->ruleset >= 0) confine(p, broker);
  close_inherited_fds();
  execvp(o->argv[0], o->argv);
  int e = errno;
  fprintf(stderr, "%s: cannot run %s: %s\n", prog, o->argv[0], strerror(e));
  _exit(e == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC);
}

struct signals {
  int chld, term, paused_changed, paused;
};

/* Everything the signalfd holds, in order (a pause and its end may come in one batch). */
static struct signals read_signals(int sfd, int paused) {
  struct signals got = {.paused = paused};
  struct signalfd_siginfo si;
  while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
    if (si.ssi_signo == SIGCHLD) got.chld = 1;
    if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGHUP) got.term = 1;
    if (si.ssi_signo == SIGUSR1 || si.ssi_signo == SIGUSR2) got.paused = si.ssi_signo == SIGUSR1;
  }
  return got;
}

/*
 * Waits for signals (a signalfd) and, with the network confined, the command's socket() calls
 * (the seccomp listener), waking on a tick to look at the host and the deadlines. The listener is
 * answered without blocking: a notification whose caller died is ENOENT, and once no process
 * uses the filter any more the listener hangs up and is closed.
 */
static _Noreturn void supervise(const struct options *o, pid_t child, int sfd, int listener) {
  static const int ignored[] = {SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE, SIGWINCH};
  for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) signal(ignored[i], SIG_IGN);
  int status = 0, child_done = 0, hard = 0, host_paused = 0;
  long deadline = -1; /* set once termination starts: SIGKILL everything at this time */
  long done_at = -1; /* when the tree was first seen empty */
  for (;;) {
    int busy = child_done || deadline >= 0;
    struct pollfd fds[2] = {{.fd = sfd, .events = POLLIN}, {.fd = listener, .events = POLLIN}};
    poll(fds, listener >= 0 ? 2 : 1, busy ? BUSY_TICK_MS : IDLE_TICK_MS);
    if (listener >= 0 && (fds[1].revents & POLLIN)) {
      answer_socket_request(listener);
    } else if (listener >= 0 && (fds[1].revents & (POLLHUP | POLLERR | POLLNVAL))) {
      close(listener);
      listener = -1;
    }
    struct signals sig = read_signals(sfd, host_paused);
    host_paused = sig.paused;
    if (sig.chld || busy) {
      int st;
      pid_t pid;
      while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        if (pid == child) {
          status = st;
          child_done = 1;
        }
      }
    }
    int host_gone = o->host_pid > 0 && getppid() != o->host_pid;
    if ((sig.term || host_gone) && deadline < 0) {
      signal_tree(SIGTERM);
      deadline = now_ms() + o->grace_ms;
    }
    if (child_done) {
      size_t left = list_descendants(tree, MAX_TREE);
      if (left == 0 && o->tty_out && !host_gone) {
        long now = now_ms();
        if (done_at < 0) done_at = now;
        if (now < done_at + (host_paused ? MAX_LINGER_MS : MIN_LINGER_MS)) continue;
      }
      if (left == 0) {
        release_pids_cgroup(child);
        exit_like(status);
      }
      if (deadline < 0) {
        /* The command is done; whatever it left behind would be an orphan nobody can reach. */
        signal_tree(SIGTERM);
        deadline = now_ms() + o->grace_ms;
      }
    }
    if (deadline >= 0 && (hard || now_ms() >= deadline)) {
      hard = 1;
      signal_tree(SIGKILL);
    }
  }
}

static void usage(void) {
  fprintf(stderr,
          "usage: %s --probe\n"
          "       %s [--rules-fd FD | --rules-stdin LEN] [--ctty] [--host-pid PID] [--grace-ms MS] "
          "[--merge-stderr] [--stdin-null] [--detach-tty] -- PROGRAM [ARGS...]\n",
          prog, prog);
  exit(2);
}

int main(int argc, char **argv) {
  struct options o = {.grace_ms = 3000, .rules_fd = -1, .rules_len = -1};
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    } else if (!strcmp(a, "--probe")) {
      return probe();
    } else if (!strcmp(a, "--rules-fd") && i + 1 < argc) {
      o.rules_fd = atoi(argv[++i]);
      o.rules_len = -1;
      if (o.rules_fd < 0) usage();
    } else if (!strcmp(a, "--rules-stdin") && i + 1 < argc) {
      o.rules_fd = 0;
      o.rules_len = atol(argv[++i]);
      if (o.rules_len < 0) usage();
    } else if (!strcmp(a, "--ctty")) {
      o.ctty = 1;
    } else if (!strcmp(a, "--host-pid") && i + 1 < argc) {
      o.host_pid = (pid_t)atoi(argv[++i]);
    } else if (!strcmp(a, "--grace-ms") && i + 1 < argc) {
      o.grace_ms = atol(argv[++i]);
    } else if (!strcmp(a, "--merge-stderr")) {
      o.merge_stderr = 1;
    } else if (!strcmp(a, "--stdin-null")) {
      o.stdin_null = 1;
    } else if (!strcmp(a, "--detach-tty")) {
      o.detach_tty = 1;
    } else {
      usage();
    }
  }
  if (i >= argc) usage();
  o.argv = argv + i;
  o.tty_out = isatty(1);

  /* Watch the host before anything else: a host that died during our start must not leave us. */
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (o.host_pid > 0 && getppid() != o.host_pid) return EXIT_REFUSED;
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  if (o.ctty) {
    /* The host opened the terminal non-blocking for itself; a command must see a blocking one
     * (a `cat` of a big file would otherwise fail with EAGAIN). The flag is the description's,
     * shared by 0, 1 and 2. */
    int fl = fcntl(0, F_GETFL);
    if (fl >= 0) fcntl(0, F_SETFL, fl & ~O_NONBLOCK);
    setsid(); /* already a session leader when the host spawned us detached */
    if (ioctl(0, TIOCSCTTY, 0) < 0)
      fprintf(stderr, "%s: cannot take the terminal: %s\n", prog, strerror(errno));
  }

  struct plan plan = {.ruleset = -1};
  if (o.rules_fd >= 0 && build_plan(o.rules_fd, o.rules_len, &plan) < 0) return EXIT_REFUSED;

  sigset_t blocked;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGCHLD);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGHUP);
  sigaddset(&blocked, SIGUSR1);
  sigaddset(&blocked, SIGUSR2);
  sigprocmask(SIG_BLOCK, &blocked, NULL); /* before fork: no exit or kill request is lost */
  int sfd = signalfd(-1, &blocked, SFD_CLOEXEC | SFD_NONBLOCK);
  /* The child hands its seccomp listener back over this pair before it execs. */
  int broker[2] = {-1, -1};
  if (sfd < 0 || (plan.net && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, broker) < 0)) {
    fprintf(stderr, "%s: %s: %s\n", prog, sfd < 0 ? "signalfd" : "socketpair", strerror(errno));
    return EXIT_CANNOT_EXEC;
  }

  pid_t child = fork();
  if (child < 0) {
    fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
    return EXIT_CANNOT_EXEC;
  }
  if (child == 0) {
    if (plan.net) close(broker[0]);
    run_child(&o, &plan, broker[1], &blocked);
  }
  if (plan.ruleset >= 0) close(plan.ruleset);
  int listener = -1;
  if (plan.net) {
    close(broker[1]);
    /* Returns when the child sent it, or at once when the child died before (-1). */
    listener = recv_fd(broker[0]);
    close(broker[0]);
  }
  supervise(&o, child, sfd, listener);
}
