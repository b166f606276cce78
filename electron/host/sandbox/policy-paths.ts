// The files of a project that the host executes or obeys as policy: its settings (permission
// rules, hooks), its skills and commands, its MCP servers, and git's hooks and configuration (git
// runs what they name when the host snapshots or lists the project). An agent that could write
// them would grant itself permissions or have the host run its code outside the sandbox.

/**
 * The policy paths at a project's root, for the sandbox: read-only to confined processes (the
 * launcher's read-only bind mounts). Not all of `.git`: a confined shell must still commit.
 */
export const PROTECTED_POLICY_PATHS = [
  '.mewbo',
  '.claude',
  '.mcp.json',
  '.git/hooks',
  '.git/config',
] as const;

/**
 * Directories whose whole content the agent's file tools treat as policy, at any depth (a nested
 * project or submodule is read the same way when it is opened): all of `.git`, since no file edit
 * there is ordinary work and `config`, `hooks/` and a worktree's gitdir all lead to code git runs.
 */
const POLICY_DIRS = ['.mewbo', '.claude', '.git'];
/** File names that are policy wherever they stand. */
const POLICY_FILES = ['.mcp.json'];

/**
 * Whether `rel` (a resolved path relative to a project root, `/`-separated) is a policy file for
 * the agent's file tools. Compared without case: on a case-insensitive disk `.Claude` is `.claude`.
 */
export function isPolicyPath(rel: string): boolean {
  const parts = rel.toLowerCase().split('/');
  return parts.some((p) => POLICY_DIRS.includes(p)) || POLICY_FILES.includes(parts.at(-1)!);
}
