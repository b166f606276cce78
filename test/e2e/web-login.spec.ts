import { test, expect } from '@playwright/test';
import { startHost } from '../helpers/host-process';
import { tempDir } from '../helpers/temp';

// The web host's login in a real browser (electron/web/PROTOCOL.md): the printed link logs the
// page in with a cookie and lands on `/` with no code in the address; the link works once; after
// a host restart the open tab reconnects by itself (same port, the cookie still valid).

test('a login link logs the browser in once; a restarted host takes the open tab back', async ({
  page,
  browser,
}) => {
  const home = tempDir('mewbo-e2e-login-');
  let host = await startHost(home.dir);
  try {
    await page.goto(host.url);
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByText('Connecting to the host')).toHaveCount(0);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === `mewbo_login_${host.port}`)).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });

    // The same link in another browser profile is dead: it worked once.
    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    const answer = await other.goto(host.url);
    expect(answer!.status()).toBe(403);
    await expect(other.getByText(/mewbo login/)).toBeVisible();
    await stranger.close();

    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await expect(page.locator('.session')).toHaveCount(1);
    const port = host.port;
    await host.stop();
    host = await startHost(home.dir);
    expect(host.port).toBe(port);
    // The tab was never reloaded: it reconnects, and what it does now reaches the new host.
    await expect(page.getByText('Connecting to the host')).toHaveCount(0, { timeout: 20_000 });
    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await expect(page.locator('.session')).toHaveCount(2);
  } finally {
    await host.stop();
    home.cleanup();
  }
});

test('Settings gives a login link that logs another browser in, once', async ({
  page,
  browser,
}) => {
  const home = tempDir('mewbo-e2e-login2-');
  const host = await startHost(home.dir);
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('tab', { name: 'Browser login' }).click();
    await dialog.getByRole('button', { name: 'New login link' }).click();
    const url = await dialog.getByRole('textbox', { name: 'Login link' }).inputValue();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?code=/);

    const second = await browser.newContext();
    const other = await second.newPage();
    await other.goto(url);
    await expect(other.getByRole('button', { name: 'New session', exact: true })).toBeVisible();
    await expect(other.getByText('Connecting to the host')).toHaveCount(0);
    const stranger = await browser.newContext();
    expect((await (await stranger.newPage()).goto(url))!.status()).toBe(403);
    await stranger.close();
    await second.close();
  } finally {
    await host.stop();
    home.cleanup();
  }
});
