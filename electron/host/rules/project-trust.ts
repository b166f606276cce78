// The questions rules, hooks, skills and commands ask about a project: is it trusted, and is this
// content of its settings what the user trusted? The workspace-trust module answers them; this
// interface keeps them from depending on more than that.
export interface ProjectTrust {
  /** Null (a session bound to no project) is never trusted. */
  isTrusted(root: string | null): boolean;
  /**
   * Whether `text`, read from the settings file `rel` of `root`, may be used: trusted, and
   * unchanged since the project was trusted (trust/trusted-content.ts).
   */
  trustsContent(root: string, rel: string, text: string): Promise<boolean>;
  /** Keeps the app's own edit of a trusted settings file trusted. */
  recordEdit(root: string, rel: string, before: string | null, after: string): Promise<void>;
}
