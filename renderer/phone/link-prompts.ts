// The prompts the alarm and text tools show: what the agent asks for, in full, and a link the
// person taps to open the Clock or Messages app with it filled in. The page learns only whether
// the link was tapped; what happens in the app afterwards is out of its sight, and every line
// here says so rather than claim the alarm was set or the text sent.

/** How long a call waits for the tap: inside the page's 28 s call deadline (host window 30 s). */
export const PROMPT_WAIT_MS = 25_000;
const VIBRATE_MS = 200;

export interface LinkPrompt {
  /** "Set an alarm", "Send a text". */
  title: string;
  /** The details, one per row: [label, value]. Shown as text, never as HTML. */
  rows: [string, string][];
  href: string;
  linkText: string;
  /** What tapping does, in the person's words. */
  hint: string;
}

/** tapped, or why not: "Not now", or the call's wait ran out (the prompt then stays up). */
export type PromptAnswer = { tapped: true } | { tapped: false; why: 'dismissed' | 'timed_out' };

export class LinkPrompts {
  constructor(private readonly container: HTMLElement) {}

  /** Shows the prompt; resolves with whether the link was tapped before "Not now" or the wait ran out. */
  ask(prompt: LinkPrompt, waitMs = PROMPT_WAIT_MS): Promise<PromptAnswer> {
    const card = document.createElement('article');
    card.className = 'prompt';
    card.setAttribute('role', 'alertdialog');
    const title = document.createElement('h2');
    title.textContent = `The agent asks: ${prompt.title}`;
    const id = `prompt-${Math.random().toString(36).slice(2)}`;
    title.id = id;
    card.setAttribute('aria-labelledby', id);
    const rows = document.createElement('dl');
    for (const [label, value] of prompt.rows) {
      const dt = document.createElement('dt');
      dt.textContent = label;
      const dd = document.createElement('dd');
      dd.textContent = value;
      rows.append(dt, dd);
    }
    const link = document.createElement('a');
    link.className = 'prompt-link';
    link.href = prompt.href;
    // Opened in a new browsing context, never this page's: a page that navigates itself to an
    // intent: or sms: link is leaving (its beforeunload fires), and a browser with no app for the
    // link holds the tab behind its "open this app?" prompt, which ignores every later tap on the
    // page (the next prompt's link, an Approve button). Android hands the new tab's link to the app
    // and closes the tab.
    link.target = '_blank';
    link.rel = 'noopener';
    link.textContent = prompt.linkText;
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = prompt.hint;
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.textContent = 'Not now';
    const status = document.createElement('p');
    status.className = 'prompt-status';
    status.setAttribute('role', 'status');
    card.append(title, rows, link, hint, dismiss, status);
    this.container.prepend(card);
    this.container.hidden = false;
    card.scrollIntoView({ block: 'start' });
    if (typeof navigator.vibrate === 'function') navigator.vibrate(VIBRATE_MS);

    return new Promise((resolve) => {
      let answered = false;
      const answer = (result: PromptAnswer, line: string) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        card.dataset.answered = result.tapped ? 'tapped' : result.why;
        status.textContent = line;
        dismiss.textContent = 'Close';
        resolve(result);
      };
      const timer = setTimeout(
        () =>
          answer(
            { tapped: false, why: 'timed_out' },
            'The agent stopped waiting and was told the link was not tapped. The link still works.',
          ),
        waitMs,
      );
      // No preventDefault: the tap itself must open the link (browsers allow apps only from taps).
      link.addEventListener('click', () =>
        answer(
          { tapped: true },
          // Chrome opens intent: links only into apps that accept links from the browser.
          'The agent was told you tapped the link, nothing more. If no app opened, do it by hand from the details above.',
        ),
      );
      dismiss.addEventListener('click', () => {
        answer({ tapped: false, why: 'dismissed' }, '');
        this.remove(card);
      });
    });
  }

  private remove(card: HTMLElement): void {
    card.remove();
    if (!this.container.children.length) this.container.hidden = true;
  }
}
