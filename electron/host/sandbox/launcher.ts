import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';

// Where the compiled launcher lives and what it says about the kernel. The binary is built from
// landlock-launcher.c by build/build-landlock.mjs into build/landlock/ of the install.

export const LAUNCHER_RELATIVE_PATH = join('build', 'landlock', 'mewbo-landlock');
/** The probe is one syscall; a launcher that takes longer than this is broken, not slow. */
const PROBE_TIMEOUT_MS = 5000;

/** The install root: the nearest ancestor of `fromDir` holding this app's package.json. */
export function findInstallRoot(fromDir: string): string | null {
  let dir = fromDir;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'mewbo-desktop')
          return dir;
      } catch {
        // an unreadable package.json is not ours; keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The launcher binary under `installRoot`, if it was built and is executable. */
export function findLauncher(installRoot: string | null): string | null {
  if (!installRoot) return null;
  // Packaged, the install is app.asar; an executable inside it runs from app.asar.unpacked.
  const path = join(installRoot, LAUNCHER_RELATIVE_PATH).replace(
    /app\.asar(?=[/\\])/,
    'app.asar.unpacked',
  );
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

export interface LandlockProbe {
  /** 0 when the kernel has no usable Landlock. */
  abi: number;
  /** Why there is none (kernel built without it, disabled at boot), else null. */
  reason: string | null;
  /**
   * Why the network of a confined command cannot be confined here (Landlock ABI < 4, no seccomp
   * listener), else null.
   */
  networkGap: string | null;
  /**
   * Why policy files cannot be held read-only here (no mount namespace: unprivileged user
   * namespaces disabled), else null.
   */
  mountGap: string | null;
}

/** A probe that found nothing usable: every gap has the same reason. */
export function noLandlock(reason: string): LandlockProbe {
  return { abi: 0, reason, networkGap: reason, mountGap: reason };
}

/** Asks the launcher for the kernel's Landlock ABI version and what it can confine. */
export function probeLandlock(launcher: string): Promise<LandlockProbe> {
  return new Promise((resolve) => {
    execFile(launcher, ['--probe'], { timeout: PROBE_TIMEOUT_MS }, (err, stdout) => {
      if (err) {
        resolve(noLandlock(`the launcher's probe failed: ${err.message}`));
        return;
      }
      let parsed: {
        abi?: unknown;
        reason?: unknown;
        net?: unknown;
        net_reason?: unknown;
        mount_ns?: unknown;
        mount_ns_reason?: unknown;
      };
      try {
        parsed = JSON.parse(stdout) as typeof parsed;
      } catch {
        resolve(noLandlock(`the launcher's probe printed no JSON: ${stdout.slice(0, 200)}`));
        return;
      }
      const abi = typeof parsed.abi === 'number' ? parsed.abi : 0;
      if (abi < 1) {
        resolve(noLandlock(typeof parsed.reason === 'string' ? parsed.reason : 'no Landlock'));
        return;
      }
      const gap = (held: unknown, why: unknown, what: string) =>
        held === true
          ? null
          : typeof why === 'string'
            ? why
            : `the sandbox launcher predates ${what} (rebuild it)`;
      resolve({
        abi,
        reason: null,
        networkGap: gap(parsed.net, parsed.net_reason, 'network confinement'),
        mountGap: gap(parsed.mount_ns, parsed.mount_ns_reason, 'read-only policy files'),
      });
    });
  });
}
