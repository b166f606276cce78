/*
 * The seccomp filter of a confined command: what Landlock does not cover.
 *
 * Always (when confined):
 * - renice, prlimit, ioprio and the scheduler calls only on itself (pid/who 0, as nice, ulimit
 *   and taskset of a new command do); EPERM for any other target: the host, the supervisor,
 *   anything else of the user's.
 * - io_uring_setup/enter/register: EPERM. io_uring's operations (socket, connect, ...) are not
 *   system calls, so no filter sees them.
 * - a system call under another ABI than the native one (i386 `int 0x80`, x32): the process is
 *   killed. Their numbers differ, so no rule here would match them.
 *
 * With the network confined (install_target_filter(1)):
 * - socket(): AF_UNIX as asked; AF_INET/AF_INET6 streams go to the supervisor
 *   (SECCOMP_RET_USER_NOTIF), which makes a socket bound to the loopback device and installs it
 *   in the command (socket-broker.c); any other type of those families is EPERM (UDP, raw), any
 *   other family EAFNOSUPPORT (netlink, packet, vsock, ...). Landlock's TCP rules then decide
 *   which ports a connect may reach; the loopback binding decides that only this machine is.
 * - socketpair() other than AF_UNIX: EAFNOSUPPORT.
 * - setsockopt SO_BINDTODEVICE / SO_BINDTOIFINDEX: EPERM (no unbinding from loopback; without
 *   CAP_NET_RAW the kernel refuses a rebind anyway).
 * - sendto/sendmsg/sendmmsg with MSG_FASTOPEN: EPERM. TCP Fast Open connects inside sendmsg,
 *   which Landlock's connect rule did not see before Linux 7.2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "launcher.h"

#ifndef SO_BINDTOIFINDEX
#define SO_BINDTOIFINDEX 62
#endif
#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif

#if defined(__x86_64__)
#define SECCOMP_ARCH AUDIT_ARCH_X86_64
#define X32_SYSCALL_BIT 0x40000000U
#elif defined(__aarch64__)
#define SECCOMP_ARCH AUDIT_ARCH_AARCH64
#endif

#define ARG_LO(n) (offsetof(struct seccomp_data, args) + 8 * (n))
#define ARG_HI(n) (offsetof(struct seccomp_data, args) + 8 * (n) + 4)
#define LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define JEQ(k, jt, jf) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (jt), (jf))
#define JSET(k, jt, jf) BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (jt), (jf))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ALLOW RET(SECCOMP_RET_ALLOW)
#define FAIL(e) RET(SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#ifdef SECCOMP_ARCH
/* Room for every rule below with margin; a program longer than this is a bug, caught at start. */
#define FILTER_MAX 128

struct filter {
  struct sock_filter ins[FILTER_MAX];
  unsigned short len;
};

static int put(struct filter *f, const struct sock_filter *ins, size_t n) {
  if (f->len + n > FILTER_MAX) return -1;
  memcpy(f->ins + f->len, ins, n * sizeof(*ins));
  f->len += (unsigned short)n;
  return 0;
}

/* `block` runs for system call `nr` only; every path through a block ends in a RET. */
static int on_syscall(struct filter *f, long nr, const struct sock_filter *block, size_t n) {
  struct sock_filter head[] = {LD(offsetof(struct seccomp_data, nr)), JEQ(nr, 0, n)};
  return put(f, head, COUNT(head)) | put(f, block, n);
}

/* Argument n (a pid or `who`) must be 0, the caller itself. */
#define SELF_ONLY(n) {LD(ARG_LO(n)), JEQ(0, 0, 3), LD(ARG_HI(n)), JEQ(0, 0, 1), ALLOW, FAIL(EPERM)}

static int sched_rules(struct filter *f) {
  static const struct sock_filter who[] = SELF_ONLY(1), pid[] = SELF_ONLY(0);
  static const long by_who[] = {__NR_setpriority, __NR_ioprio_set};
  static const long by_pid[] = {__NR_prlimit64, __NR_sched_setscheduler, __NR_sched_setparam,
                                __NR_sched_setaffinity, __NR_sched_setattr};
  int err = 0;
  for (size_t i = 0; i < COUNT(by_who); i++) err |= on_syscall(f, by_who[i], who, COUNT(who));
  for (size_t i = 0; i < COUNT(by_pid); i++) err |= on_syscall(f, by_pid[i], pid, COUNT(pid));
  static const struct sock_filter refuse[] = {FAIL(EPERM)};
  static const long io_uring[] = {__NR_io_uring_setup, __NR_io_uring_enter,
                                  __NR_io_uring_register};
  for (size_t i = 0; i < COUNT(io_uring); i++)
    err |= on_syscall(f, io_uring[i], refuse, COUNT(refuse));
  return err;
}

static int network_rules(struct filter *f) {
  static const struct sock_filter socket_[] = {
      /* 0 */ LD(ARG_LO(0)), /* the family */
      /* 1 */ JEQ(AF_UNIX, 5, 0),
      /* 2 */ JEQ(AF_INET, 1, 0),
      /* 3 */ JEQ(AF_INET6, 0, 6),
      /* 4 */ LD(ARG_LO(1)), /* the type, less SOCK_NONBLOCK and SOCK_CLOEXEC */
      /* 5 */ BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf),
      /* 6 */ JEQ(SOCK_STREAM, 1, 2),
      /* 7 */ ALLOW,
      /* 8 */ RET(SECCOMP_RET_USER_NOTIF),
      /* 9 */ FAIL(EPERM),
      /* 10 */ FAIL(EAFNOSUPPORT),
  };
  static const struct sock_filter socketpair_[] = {LD(ARG_LO(0)), JEQ(AF_UNIX, 0, 1), ALLOW,
                                                   FAIL(EAFNOSUPPORT)};
  static const struct sock_filter setsockopt_[] = {
      /* 0 */ LD(ARG_LO(1)), /* level */
      /* 1 */ JEQ(SOL_SOCKET, 0, 3),
      /* 2 */ LD(ARG_LO(2)), /* option */
      /* 3 */ JEQ(SO_BINDTODEVICE, 2, 0),
      /* 4 */ JEQ(SO_BINDTOIFINDEX, 1, 0),
      /* 5 */ ALLOW,
      /* 6 */ FAIL(EPERM),
  };
  /* The flags are the 4th argument of sendto and sendmmsg, the 3rd of sendmsg. */
  static const struct sock_filter flags3[] = {LD(ARG_LO(3)), JSET(MSG_FASTOPEN, 0, 1),
                                              FAIL(EPERM), ALLOW};
  static const struct sock_filter flags2[] = {LD(ARG_LO(2)), JSET(MSG_FASTOPEN, 0, 1),
                                              FAIL(EPERM), ALLOW};
  return on_syscall(f, __NR_socket, socket_, COUNT(socket_)) |
         on_syscall(f, __NR_socketpair, socketpair_, COUNT(socketpair_)) |
         on_syscall(f, __NR_setsockopt, setsockopt_, COUNT(setsockopt_)) |
         on_syscall(f, __NR_sendto, flags3, COUNT(flags3)) |
         on_syscall(f, __NR_sendmmsg, flags3, COUNT(flags3)) |
         on_syscall(f, __NR_sendmsg, flags2, COUNT(flags2));
}

int install_target_filter(int net) {
  struct filter f = {.len = 0};
  static const struct sock_filter native_only[] = {
      LD(offsetof(struct seccomp_data, arch)),
      JEQ(SECCOMP_ARCH, 1, 0),
      RET(SECCOMP_RET_KILL_PROCESS),
#ifdef X32_SYSCALL_BIT
      /* x32 shares the arch value and sets this bit in the number (-1 is "no call", kept). */
      LD(offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 2),
      JEQ(0xffffffffU, 1, 0),
      RET(SECCOMP_RET_KILL_PROCESS),
#endif
  };
  static const struct sock_filter tail[] = {ALLOW};
  int err = put(&f, native_only, COUNT(native_only)) | sched_rules(&f);
  if (net) err |= network_rules(&f);
  err |= put(&f, tail, COUNT(tail));
  if (err) {
    errno = E2BIG;
    return -1;
  }
  struct sock_fprog prog_ = {.len = f.len, .filter = f.ins};
  long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                   net ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &prog_);
  return r < 0 ? -1 : (int)r;
}
#else
int install_target_filter(int net) {
  /* An architecture this file does not know: Landlock's rules still hold, the network cannot. */
  if (net) {
    errno = ENOSYS;
    return -1;
  }
  return 0;
}
#endif
