// The one question rules, hooks, skills and commands ask about a project: is it trusted? The
// workspace-trust module answers it; this interface keeps them from depending on more than that.
export interface ProjectTrust {
  /** Null (a session bound to no project) is never trusted. */
  isTrusted(root: string | null): boolean;
}
