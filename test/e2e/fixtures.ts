import { test as base, type Page } from '@playwright/test';
import { startHost, type HostProcess } from '../helpers/host-process';
import { tempDir } from '../helpers/temp';

export const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url).pathname;

/** Each test gets its own MEWBO_HOME and its own `mewbo serve`, and a page open on it. */
export const test = base.extend<{
  home: string;
  hostEnv: NodeJS.ProcessEnv;
  host: HostProcess;
  app: Page;
}>({
  hostEnv: [{}, { option: true }],
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
  app: async ({ page, host }, use) => {
    await page.goto(host.url);
    await use(page);
  },
});

export { expect } from '@playwright/test';
