// The editor's terminals, when the client driving a session offers them (`mewbo acp` with an ACP
// client that offers terminal/*): a foreground command of aider_shell_tool runs in a terminal the
// editor draws on the call's card. What the editor runs is the app's confined launch of the command
// (ShellService.launchFor), never the bare command: the editor shows it, it cannot run it free.

export interface EditorRunRequest {
  /** The confined launch: what the editor starts (program, then its arguments). */
  argv: string[];
  cwd: string;
  /** The tool call the terminal belongs to (the editor draws the terminal on its card). */
  callId?: string;
  /** Output the editor keeps (bytes, its tail). */
  outputByteLimit: number;
  /** The command is killed after this long (ms). */
  timeoutMs: number;
  /** Stop: the command is killed. */
  signal: AbortSignal;
}

export interface EditorRun {
  terminalId: string;
  output: string;
  /** The editor dropped the start of the output to keep within the limit. */
  truncated: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
}

export interface EditorTerminals {
  /** Runs the launch in a new editor terminal to its end; rejects with the editor's reason. */
  run(req: EditorRunRequest): Promise<EditorRun>;
}
