// Landlock filesystem access rights (the kernel's stable bit values, include/uapi/linux/landlock.h).
// The launcher masks every grant to the rights the running kernel's ABI knows, so the host may
// ask for all of them; these masks only say which class of access a grant is for.

export const FS = {
  EXECUTE: 1 << 0,
  WRITE_FILE: 1 << 1,
  READ_FILE: 1 << 2,
  READ_DIR: 1 << 3,
  REMOVE_DIR: 1 << 4,
  REMOVE_FILE: 1 << 5,
  MAKE_CHAR: 1 << 6,
  MAKE_DIR: 1 << 7,
  MAKE_REG: 1 << 8,
  MAKE_SOCK: 1 << 9,
  MAKE_FIFO: 1 << 10,
  MAKE_BLOCK: 1 << 11,
  MAKE_SYM: 1 << 12,
  REFER: 1 << 13,
  TRUNCATE: 1 << 14,
  IOCTL_DEV: 1 << 15,
} as const;

/** Looking at things: what a read-only grant carries. */
export const READ_RIGHTS = FS.EXECUTE | FS.READ_FILE | FS.READ_DIR;

/**
 * Everything a granted directory gets, except creating device nodes: no shell task needs them,
 * and a root shell able to mknod a block device could read a denied file off the raw disk.
 */
export const ALL_RIGHTS =
  Object.values(FS).reduce((a, b) => a | b, 0) & ~(FS.MAKE_CHAR | FS.MAKE_BLOCK);

/** Writing to an existing device such as /dev/null or the terminal, without creating anything. */
export const DEVICE_WRITE_RIGHTS = READ_RIGHTS | FS.WRITE_FILE | FS.TRUNCATE | FS.IOCTL_DEV;

/**
 * A foreground command's terminal: written to, never read. A pager that opens the terminal by
 * name to read keys (less does, when /dev/tty is not there) fails at once instead of waiting.
 */
export const TERMINAL_WRITE_ONLY_RIGHTS = FS.READ_DIR | FS.WRITE_FILE | FS.TRUNCATE | FS.IOCTL_DEV;
