import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, SCREENSHOTS, shots } from './fixtures';
import { tempDir } from '../helpers/temp';

// #17.14: drag a folder onto the window to open it as a project. Chromium cannot be handed a real
// OS drag here, so the drag and drop events are dispatched on the window with a DataTransfer that
// holds what a dropped folder holds (a typeless file item whose entry is a directory). In the web
// build a page never learns a dropped folder's path, and the app says so; in Electron the preload
// tells it (webUtils.getPathForFile), which the second test stands in for.

async function dragFolder(app: Page, type: 'dragover' | 'drop', name: string, isDirectory = true) {
  await app.evaluate(
    ({ type, name, isDirectory }) => {
      const file = new File([], name);
      const item = {
        kind: 'file',
        type: '',
        webkitGetAsEntry: () => ({ isDirectory, name }),
        getAsFile: () => file,
      };
      const e = new Event(type, { bubbles: true, cancelable: true });
      Object.defineProperty(e, 'dataTransfer', {
        value: { types: ['Files'], items: [item], files: [file], dropEffect: 'none' },
      });
      document.querySelector('main')!.dispatchEvent(e);
    },
    { type, name, isDirectory },
  );
}

test('in the browser, a dropped folder says it cannot be opened from here and how to open it', async ({
  app,
}) => {
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  // A real drag repeats dragover every few ms, and the overlay leaves 200 ms after the last one:
  // one event alone can be gone before a loaded machine looks.
  await expect(async () => {
    await dragFolder(app, 'dragover', 'my-app');
    await expect(app.getByText('Drop a folder to open it as a project')).toBeVisible({
      timeout: 100,
    });
    await app.screenshot({ path: `${SCREENSHOTS}/folder-drag.png` });
  }).toPass();
  await dragFolder(app, 'drop', 'my-app');
  await expect(app.getByText('Drop a folder to open it as a project')).toHaveCount(0);
  const notice = app.getByRole('alert').filter({ hasText: 'my-app' });
  await expect(notice).toContainText('does not tell the app where “my-app” is on disk');
  await expect(notice).toContainText('Ctrl+P');
  await shots(app, 'folder-drop-web', async (size) => {
    const b = (await notice.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(size.width);
  });
  // Its way forward is one click: the project picker, where a path can be typed.
  await notice.getByRole('button', { name: 'Open project…' }).click();
  await expect(app.getByRole('dialog', { name: 'Open project' })).toBeVisible();
});

test('a dropped folder whose path the window knows opens as the current project', async ({
  app,
}) => {
  const folder = tempDir('mewbo-dropped-');
  try {
    writeFileSync(join(folder.dir, 'README.md'), '# dropped\n');
    const name = basename(folder.dir);
    await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
    await expect(app.getByText('Connecting to the host')).toHaveCount(0);
    // What Electron's preload answers for a dropped folder (webUtils.getPathForFile).
    await app.evaluate((path) => {
      (window as unknown as { mewbo: object }).mewbo = { pathForFile: () => path };
    }, folder.dir);
    await dragFolder(app, 'drop', name);
    await expect(
      app.getByRole('navigation', { name: 'Sessions' }).locator('.project-name'),
    ).toHaveText(name);
    // A plain file is not a project: it says what the window takes.
    await dragFolder(app, 'drop', 'notes.txt', false);
    await expect(app.getByRole('alert')).toContainText(
      'Drop a folder here to open it as a project',
    );
  } finally {
    folder.cleanup();
  }
});
