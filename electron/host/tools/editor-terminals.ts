import type { ShellChild } from '../shells/shell-child';

// The editor's terminals, when the client driving a session offers them (`mewbo acp` with an ACP
// client that offers terminal/*): a foreground command of aider_shell_tool runs in a terminal the
// editor draws on the call's card, and so does a background shell (without tty: an editor's
// terminal has no stdin), which shell_session_tool then reads and kills like the app's own. What
// the editor runs is the app's confined launch of the command (ShellService.launchFor), never the
// bare command: the editor shows it, it cannot run it free.

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

export interface EditorStartRequest {
  /** The confined launch: what the editor starts (program, then its arguments). */
  argv: string[];
  cwd: string;
  /** The tool call that started it (the editor draws the terminal on its card). */
  callId?: string;
  /** Output the editor keeps (bytes, its tail): the shell's own buffer size. */
  outputByteLimit: number;
}

/** A background command running in an editor's terminal, as the shell manager drives a process. */
export interface EditorBackground {
  terminalId: string;
  /** Its output (read from the editor), exit and kill; it takes no input. */
  child: ShellChild;
}

export interface EditorTerminals {
  /** Runs the launch in a new editor terminal to its end; rejects with the editor's reason. */
  run(req: EditorRunRequest): Promise<EditorRun>;
  /** Starts the launch in a new editor terminal and returns at once; rejects with the editor's reason. */
  start(req: EditorStartRequest): Promise<EditorBackground>;
}
