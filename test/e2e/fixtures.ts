import { test as base, type Page } from '@playwright/test';
import { startHost, type HostProcess } from '../helpers/host-process';
import { tempDir } from '../helpers/temp';

export const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url).pathname;

/** Each test gets its own MEWBO_HOME and its own `mewbo serve`, and a page open on it. */
export const test = base.extend<{
  home: string;
  hostEnv: NodeJS.ProcessEnv;
  /**
   * Whether the page has WebGL. Off by default: consoles then draw with xterm's DOM renderer
   * (their fallback), whose text the tests read; webgl.spec.ts turns it on for the WebGL path.
   */
  webgl: boolean;
  host: HostProcess;
  app: Page;
}>({
  hostEnv: [{}, { option: true }],
  webgl: [false, { option: true }],
  // Playwright reads fixture dependencies from the destructuring: none here.
  // eslint-disable-next-line no-empty-pattern
  home: async ({}, use) => {
    const t = tempDir('mewbo-e2e-');
    await use(t.dir);
    t.cleanup();
  },
  host: async ({ home, hostEnv }, use) => {
    const host = await startHost(home, hostEnv);
    await use(host);
    await host.stop();
  },
  app: async ({ page, host, webgl }, use) => {
    if (!webgl) await page.addInitScript(withoutWebgl);
    await page.goto(host.url);
    await use(page);
  },
});

/** The window sizes every screen is looked at in (the screenshot bar), light and dark. */
export const SHOT_SIZES = [
  { width: 1440, height: 900 },
  { width: 900, height: 650 },
] as const;

/**
 * The page at each of SHOT_SIZES, light and dark, for a person to look at: `check` (what the
 * shots once showed wrong) runs at each before its shot, SCREENSHOTS/name-WxH-theme.png.
 */
export async function shots(
  app: Page,
  name: string,
  check?: (size: { width: number; height: number }) => Promise<void>,
): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const size of SHOT_SIZES) {
      await app.setViewportSize(size);
      await check?.(size);
      await app.screenshot({
        path: `${SCREENSHOTS}/${name}-${size.width}x${size.height}-${theme}.png`,
      });
    }
  }
}

/** Runs in the page before its scripts: no WebGL context can be created, as on a machine without it. */
export function withoutWebgl(): void {
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (
    this: HTMLCanvasElement,
    type: string,
    ...rest: unknown[]
  ) {
    if (type === 'webgl' || type === 'webgl2' || type === 'experimental-webgl') return null;
    return (getContext as (...a: unknown[]) => unknown).call(this, type, ...rest);
  } as typeof getContext;
}

export { expect } from '@playwright/test';
