import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import type { WebglAddon } from '@xterm/addon-webgl';
import { shellStreamFrameSchema } from '../../../shared/protocol/shell-stream';
import { isShellOutputBytes } from '../../../shared/protocol/shell-binary';
import type { ShellInfo } from '../../../shared/tools/shell-payload';
import type { Client } from '../transport/transport';
import type { TopicSubscription } from '../transport/transport';
import { isPrimary } from '../lib/shortcuts';
import { SCROLLBACK_LINES, TERMINAL_FONT } from './constants';

/**
 * The host sends the shell's state on subscribe and on exit; what it learns in between (URLs a
 * dev server printed) is fetched again after new output, at most this often.
 */
const INFO_REFRESH_MS = 2_000;

/**
 * Input typed before the host's first word on the shell is held (up to this many characters) and
 * sent once it says the shell runs: the console shows a running shell from the session log before
 * its stream has answered, and what is typed into it then must reach the shell, not vanish.
 */
const EARLY_INPUT_MAX_CHARS = 64 * 1024;

/** What was typed: keystrokes as they are, or a line whose ending depends on the shell (tty or pipe). */
type TypedInput = { keys: string } | { line: string };

/**
 * What draws a console: xterm's WebGL renderer where the page has WebGL2 (a GPU, or a software
 * one), else xterm's DOM renderer, which a console also falls back to when its WebGL context is
 * lost (a driver reset, or too many contexts in the page) and not restored.
 */
export type ConsoleRenderer = 'webgl' | 'dom';

export interface ConsoleSnapshot {
  info: ShellInfo | null;
  /** Characters the host evicted before this console got them (a lagging or late subscriber). */
  missed: number;
  /** The stream failed (unknown shell, host gone): why. */
  error: string | null;
}

/**
 * One background shell's console: an xterm Terminal, its addons and its stream subscription. It
 * lives outside React (the registry owns it), so a console that scrolls out, changes tab or
 * re-renders keeps its screen and scrollback; React only moves its element in and out of view.
 */
export class ConsoleEntry {
  readonly term: Terminal;
  readonly search = new SearchAddon();
  private readonly fit = new FitAddon();
  /** The element xterm draws into; it moves between hosts instead of being re-created. */
  readonly element: HTMLDivElement;
  private opened = false;
  private sub: TopicSubscription | null = null;
  /** Absolute cursor just past what the terminal has been given: replays after a reconnect skip it. */
  private written = -1;
  private snapshot: ConsoleSnapshot = { info: null, missed: 0, error: null };
  private readonly listeners = new Set<() => void>();
  private resizeObserver: ResizeObserver | null = null;
  /** The size last sent to the host's PTY. */
  private sentSize: { cols: number; rows: number } | null = null;
  private lastInfoRefresh = 0;
  private webgl: WebglAddon | null = null;
  private disposed = false;
  private infoTimer: ReturnType<typeof setTimeout> | null = null;
  /** Typed before the stream's first shell_state: sent (or dropped) when it comes. */
  private early: TypedInput[] = [];
  private earlyChars = 0;

  constructor(
    private readonly client: Client,
    readonly sessionId: string,
    readonly shellId: string,
    theme: ITheme,
  ) {
    this.term = new Terminal({
      scrollback: SCROLLBACK_LINES,
      convertEol: true,
      ...TERMINAL_FONT,
      theme,
      allowProposedApi: true,
      cursorBlink: false,
    });
    this.term.loadAddon(this.fit);
    this.term.loadAddon(this.search);
    this.element = document.createElement('div');
    this.element.className = 'xterm-host';
    this.term.onData((keys) => this.type({ keys }));
    // The app's own shortcuts (project picker, settings) work with the console focused too; the
    // terminal never sees them (bash's Ctrl+P history is still on the arrow keys). Tab is the
    // shell's (completion) while it runs, and Shift+Tab leaves the terminal (the console says so
    // while it has focus); once the shell has ended Tab moves on too, as anywhere else.
    this.term.attachCustomKeyEventHandler(
      (e) =>
        !(
          isPrimary(e, 'p') ||
          isPrimary(e, ',') ||
          (e.key === 'Tab' && (e.shiftKey || this.snapshot.info?.status !== 'running'))
        ),
    );
    this.term.onResize(() => this.sendSize());
    this.sub = client.subscribe(
      `shell:${sessionId}:${shellId}`,
      undefined,
      (data) => this.onFrame(data),
      (err) => {
        this.early = [];
        this.update({ error: err.message });
      },
    );
  }

  private onFrame(raw: unknown): void {
    if (isShellOutputBytes(raw))
      return this.onOutput(raw.cursor, raw.characters, raw.missed_characters, raw.bytes);
    const parsed = shellStreamFrameSchema.safeParse(raw);
    if (!parsed.success) return;
    const frame = parsed.data;
    if (frame.type === 'shell_state') {
      this.update({ info: frame.shell, error: null });
      const early = this.early.splice(0);
      this.earlyChars = 0;
      if (early.length) this.send(early);
      // The first word of a PTY: it may have been born before this console measured its pane.
      this.sendSize();
      return;
    }
    this.onOutput(frame.cursor, frame.data.length, frame.missed_characters, frame.data);
  }

  /**
   * Output from `cursor`, `length` characters long: text (JSON frames) or its UTF-8 bytes (binary
   * frames, which xterm decodes itself, so no string is built for them here).
   */
  private onOutput(
    cursor: number,
    length: number,
    missed: number | undefined,
    data: string | Uint8Array,
  ): void {
    this.scheduleInfoRefresh();
    if (missed) {
      this.update({ missed: this.snapshot.missed + missed });
      this.term.write(
        `\r\n\x1b[2m[… ${missed} characters were evicted before this console got them …]\x1b[0m\r\n`,
      );
    }
    // After a reconnect the topic replays from the start of the retained output: skip what is shown.
    const skip = this.written < 0 ? 0 : Math.max(0, Math.min(length, this.written - cursor));
    this.written = Math.max(this.written, cursor + length);
    let fresh = data;
    if (skip) {
      // Cursors count characters, so a skip into bytes goes through the text (reconnects only).
      const text = typeof data === 'string' ? data : new TextDecoder().decode(data);
      fresh = text.slice(skip);
    }
    // Ack once xterm has parsed the data: the host holds the shell while too much is unacked.
    if (fresh.length) this.term.write(fresh, () => this.sub?.ack(length));
    else this.sub?.ack(length);
  }

  private scheduleInfoRefresh(): void {
    if (this.infoTimer || this.snapshot.info?.status !== 'running') return;
    const wait = Math.max(0, this.lastInfoRefresh + INFO_REFRESH_MS - Date.now());
    this.infoTimer = setTimeout(() => {
      this.infoTimer = null;
      this.lastInfoRefresh = Date.now();
      this.client.invoke('shells.list', { session_id: this.sessionId }).then(
        (r) => {
          const info = r.shells.find((s) => s.shell_id === this.shellId);
          // A state frame (exit) that arrived meanwhile is newer than a listing that was in flight.
          if (info && this.snapshot.info?.status === 'running') this.update({ info });
        },
        () => {},
      );
    }, wait);
  }

  /** A line from the console's input box, ended as the shell reads lines (CR on a tty, else LF). */
  inputLine(line: string): void {
    this.type({ line });
  }

  /** What is typed into the console goes to the shell's stdin (a running shell only). */
  private type(input: TypedInput): void {
    if (this.snapshot.info) return this.send([input]);
    if (this.snapshot.error) return;
    const chars = 'keys' in input ? input.keys.length : input.line.length + 1;
    if (this.earlyChars + chars > EARLY_INPUT_MAX_CHARS) return;
    this.earlyChars += chars;
    this.early.push(input);
  }

  private send(inputs: TypedInput[]): void {
    const info = this.snapshot.info;
    if (info?.status !== 'running') return;
    // A terminal's Enter is CR; a pipe-backed shell reads lines ending in LF.
    const data = inputs
      .map((i) => ('keys' in i ? i.keys : `${i.line}${info.tty ? '\r' : '\n'}`))
      .join('');
    void this.client.transport
      .invoke('shells.input', { session_id: this.sessionId, shell_id: this.shellId, data })
      .catch((err: unknown) => {
        this.update({ error: err instanceof Error ? err.message : String(err) });
      });
  }

  kill(): Promise<unknown> {
    return this.client.transport.invoke('shells.kill', {
      session_id: this.sessionId,
      shell_id: this.shellId,
    });
  }

  /** Shows the console inside `host`; the first time, xterm opens on its element. */
  attach(host: HTMLElement): void {
    host.appendChild(this.element);
    if (!this.opened) {
      this.term.open(this.element);
      this.opened = true;
      this.setRenderer('dom');
      void this.useWebgl();
    }
    this.resizeObserver?.disconnect();
    this.resizeObserver = new ResizeObserver(() => this.refit());
    this.resizeObserver.observe(host);
    this.refit();
    // xterm measures its cell on open, and may measure again once the font is in: a fit made
    // before that counts columns with the wrong cell width (two too many in a 480 px pane).
    requestAnimationFrame(() => this.refit());
    void document.fonts.ready.then(() => this.refit());
  }

  detach(host: HTMLElement): void {
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
    if (this.element.parentElement === host) host.removeChild(this.element);
  }

  /** Which renderer draws it now (also on the element as data-renderer, for tests and bug reports). */
  get renderer(): ConsoleRenderer {
    return this.webgl ? 'webgl' : 'dom';
  }

  private setRenderer(r: ConsoleRenderer): void {
    this.element.dataset.renderer = r;
  }

  /**
   * Moves drawing to WebGL, loading the addon with the first console (it is large, and a page
   * without consoles never needs it). Without WebGL2 the addon throws as it activates and the
   * DOM renderer stays; on a context loss it is dropped and xterm draws with the DOM again.
   */
  private async useWebgl(): Promise<void> {
    let addon: WebglAddon;
    try {
      const { WebglAddon } = await import('@xterm/addon-webgl');
      if (this.disposed) return;
      addon = new WebglAddon();
      this.term.loadAddon(addon);
    } catch {
      return;
    }
    this.webgl = addon;
    this.setRenderer('webgl');
    addon.onContextLoss(() => {
      if (this.webgl !== addon) return;
      this.webgl = null;
      addon.dispose();
      this.setRenderer('dom');
    });
  }

  private refit(): void {
    // A hidden host measures 0x0; fitting then would shrink the terminal to one column.
    if (!this.element.isConnected || this.element.clientWidth === 0) return;
    try {
      this.fit.fit();
    } catch {}
    this.sendSize();
  }

  /** The PTY takes the console's size (once per change; xterm's own resize event covers the rest). */
  private sendSize(): void {
    const info = this.snapshot.info;
    if (!this.opened || !info?.tty || info.status !== 'running') return;
    const { cols, rows } = this.term;
    if (this.sentSize?.cols === cols && this.sentSize.rows === rows) return;
    this.sentSize = { cols, rows };
    void this.client.transport
      .invoke('shells.resize', { session_id: this.sessionId, shell_id: this.shellId, cols, rows })
      .catch(() => {
        this.sentSize = null;
      });
  }

  /** The whole buffer as text (Copy all). */
  text(): string {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '');
    while (lines.length && !lines.at(-1)) lines.pop();
    return lines.join('\n');
  }

  setTheme(theme: ITheme): void {
    this.term.options.theme = theme;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ConsoleSnapshot => this.snapshot;

  private update(patch: Partial<ConsoleSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  dispose(): void {
    this.disposed = true;
    this.webgl?.dispose();
    this.webgl = null;
    if (this.infoTimer) clearTimeout(this.infoTimer);
    this.sub?.unsubscribe();
    this.sub = null;
    this.resizeObserver?.disconnect();
    this.listeners.clear();
    this.term.dispose();
    this.element.remove();
  }
}
