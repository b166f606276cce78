import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { TERMINAL_FONT } from './constants';
import { TodoDock } from '../components/dock/TodoDock';
import type { TodoItem } from '../state/timeline-items';

// The size a session's first console will have, before it exists: a PTY is born with a size, and a
// program that asks at once (`stty size`, a TUI drawing its first screen) must get the pane's, not
// 120x30. The dock that will hold the console is not on the page yet, so its skeleton (the same
// classes: tab strip, header, screen, input line) is laid out off screen in the box the dock will
// get, and a terminal with the consoles' font is fitted inside it, exactly as the real one will be.
// The session's todo list goes above it, drawn by the dock's own component: its height depends on
// the dock's width (labels wrap) and height (it takes at most a share of it), and a folded dock
// has no todo list on the page to measure.

export interface Box {
  width: number;
  height: number;
}

export function measureConsole(
  box: Box,
  todos: TodoItem[] | null,
): { cols: number; rows: number } | null {
  if (box.width < 1 || box.height < 1) return null;
  const probe = document.createElement('div');
  probe.setAttribute('aria-hidden', 'true');
  probe.style.cssText = `position:fixed;left:-100000px;top:0;visibility:hidden;display:flex;width:${box.width}px;height:${box.height}px`;
  probe.innerHTML = `<aside class="dock" style="flex:1"><div style="display:contents"></div><div class="console-dock">
<div class="console-tabs"><button type="button" class="console-tab"><span class="run-dot"></span>x</button></div>
<section class="console"><header class="console-head"><span class="state-pill running">running</span>
<code class="console-command">${'x'.repeat(200)}</code><span class="muted small">0.0 s</span><span class="spacer"></span>
<button type="button" class="small">Search</button><button type="button" class="small">Copy</button>
<button type="button" class="small danger">Kill</button></header>
<div class="console-term"><div class="xterm-host"></div></div>
<form class="console-input"><input></form></section></div></aside>`;
  document.body.appendChild(probe);
  // The wrapper has no box of its own, so the list is laid out as the dock's own child.
  const above = todos ? createRoot(probe.querySelector<HTMLElement>('aside > div')!) : null;
  const term = new Terminal({ ...TERMINAL_FONT, allowProposedApi: true });
  const fit = new FitAddon();
  try {
    if (above && todos) flushSync(() => above.render(createElement(TodoDock, { todos })));
    term.loadAddon(fit);
    term.open(probe.querySelector<HTMLElement>('.xterm-host')!);
    const size = fit.proposeDimensions();
    return size && size.cols > 0 && size.rows > 0 ? { cols: size.cols, rows: size.rows } : null;
  } catch {
    return null;
  } finally {
    term.dispose();
    above?.unmount();
    probe.remove();
  }
}
