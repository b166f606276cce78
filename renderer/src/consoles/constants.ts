// How a console's terminal draws, in the page and in the console benchmark's reference
// (bench/ui-console-throughput.bench.ts gives xterm alone the same options).

/** How a console's terminal draws text: the size probe (console-size-probe.ts) lays out the same. */
export const TERMINAL_FONT = {
  fontFamily: 'ui-monospace, "SF Mono", "JetBrains Mono", Menlo, Consolas, monospace',
  fontSize: 12,
  lineHeight: 1.15,
} as const;

/** Lines a console keeps for scrolling back; the host keeps the full 1,000,000-character buffer. */
export const SCROLLBACK_LINES = 10_000;
