// The editor's own view of the project's files, when the client driving a session serves one
// (`mewbo acp` with an ACP client that offers fs/read_text_file and fs/write_text_file): a file
// open there with unsaved changes is read as the user sees it, and an edit lands in the editor's
// buffer, so the editor shows it. The tools make every check of theirs first (inside the root,
// not denied, not a policy file, a regular text file on disk); only then is the editor asked.

export interface EditorFiles {
  /** The editor's text of the absolute path `abs`, or null when it has none to give (read the disk). */
  readText?(abs: string): Promise<string | null>;
  /** Gives the editor the new text of `abs`; rejects with the editor's reason when it does not take it. */
  writeText?(abs: string, content: string): Promise<void>;
}
