import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

// Driving the app with the keyboard alone (no click, no programmatic focus): a control is reached
// with Tab (so it is in the tab order), and the focused one always shows a focus ring.

/** Whether `target` (any of its elements) holds the keyboard focus. */
export const focused = (target: Locator) =>
  target.evaluateAll((els) => els.some((el) => el === document.activeElement));

/** Presses Tab (or Shift+Tab) until `target` has focus: it is in the tab order, and reached. */
export async function tabTo(app: Page, target: Locator, back = false): Promise<void> {
  await expect(target.first()).toBeVisible();
  for (let i = 0; i < 80; i++) {
    if (await focused(target)) return expectRing(app);
    await app.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** The focused element is not <body>, and it shows a focus ring (outline or box shadow). */
export async function expectRing(app: Page): Promise<void> {
  const seen = await app.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'focus fell to <body>';
    const s = getComputedStyle(el);
    const ring =
      (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    if (!el.matches(':focus-visible')) return `no :focus-visible on ${el.outerHTML.slice(0, 80)}`;
    return ring ? 'ring' : `no ring on ${el.outerHTML.slice(0, 80)}`;
  });
  expect(seen).toBe('ring');
}
