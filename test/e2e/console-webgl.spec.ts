import type { Locator, Page } from '@playwright/test';
import type { ModelScript } from '../helpers/fake-model-script';
import { test, expect, openProject, startSession } from './agent-fixtures';

// Which renderer draws a console: WebGL where the page has it, xterm's DOM renderer where it does
// not, and the DOM renderer again after the WebGL context is lost. Headless Chromium here has
// WebGL2 (SwiftShader, in software), so both paths run for real: the page without WebGL is one
// where no canvas can give a WebGL context (fixtures.ts, withoutWebgl).

const ECHO = 'echo "first line"; while read -r l; do echo "got:$l"; done';

async function startConsole(app: Page, script: ModelScript): Promise<Locator> {
  script.push(
    {
      toolCalls: [{ name: 'aider_shell_tool', args: { command: ECHO, run_in_background: true } }],
    },
    { text: 'Started.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Echo what I type');
  await app
    .getByRole('article', { name: 'Approval: aider_shell_tool' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const console = app.getByRole('region', { name: /^Console: echo "first line"/ });
  await expect(console.getByRole('status', { name: /Status: running/ })).toBeVisible();
  return console;
}

async function type(console: Locator, text: string): Promise<void> {
  const input = console.getByRole('textbox', { name: /^Input to/ });
  await input.fill(text);
  await input.press('Enter');
}

/** The console's whole buffer as the Copy button gives it (what xterm holds, whatever draws it). */
async function copied(app: Page, console: Locator): Promise<string> {
  await console.getByRole('button', { name: 'Copy' }).click();
  return app.evaluate(() => navigator.clipboard.readText());
}

test.describe('with WebGL', () => {
  test.use({ webgl: true });

  test('a console draws with WebGL, and after its context is lost, with the DOM, losing nothing', async ({
    app,
    script,
  }) => {
    await app.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const console = await startConsole(app, script);
    const host = console.locator('.xterm-host');
    await expect(host).toHaveAttribute('data-renderer', 'webgl');
    // WebGL draws on a canvas of its own; the DOM renderer's rows are gone meanwhile.
    await expect(host.locator('.xterm-screen canvas').first()).toBeAttached();
    await type(console, 'drawn by webgl');
    await expect.poll(() => copied(app, console)).toContain('got:drawn by webgl');
    await expect(host.locator('.xterm-rows')).toHaveCount(0);
    await expect(console).not.toContainText('got:drawn by webgl');

    // What a GPU reset does: the context goes and is not restored.
    await host.evaluate((el) => {
      // The renderer's own canvas (its link layer is a 2D canvas, which has no WebGL context).
      const gl = Array.from(el.querySelectorAll<HTMLCanvasElement>('.xterm-screen canvas'))
        .map((c) => c.getContext('webgl2'))
        .find((g) => g !== null)!;
      gl.getExtension('WEBGL_lose_context')!.loseContext();
    });
    await expect(host).toHaveAttribute('data-renderer', 'dom');
    await expect(host.locator('.xterm-screen canvas')).toHaveCount(0);
    // The DOM renderer shows what was there before, and what comes after.
    await expect(console).toContainText('got:drawn by webgl');
    await type(console, 'drawn by the dom');
    await expect(console).toContainText('got:drawn by the dom');
  });
});

test('without WebGL a console draws with the DOM renderer', async ({ app, script }) => {
  const errors: string[] = [];
  app.on('pageerror', (e) => errors.push(e.message));
  const console = await startConsole(app, script);
  const host = console.locator('.xterm-host');
  // The screen's rows, not the console's heading (which names the command, "first line" and all).
  await expect(host.locator('.xterm-rows')).toContainText('first line');
  await type(console, 'no webgl here');
  await expect(console).toContainText('got:no webgl here');
  await expect(host).toHaveAttribute('data-renderer', 'dom');
  await expect(host.locator('.xterm-screen canvas')).toHaveCount(0);
  // The failed WebGL attempt was caught, not left to break the page.
  expect(errors).toEqual([]);
});
