import { test, expect, SCREENSHOTS } from './fixtures';
import { ReferenceClient } from '../helpers/reference-remote-client';

// #21 parts 1 and 5 in the desktop UI: the Pair phone dialog grants remote rights to the phone
// that pairs with the code on screen, and each paired phone's entry has "Remote" and "Screen
// control" switches (off by default) that act on the live phone at once; while screen control is
// on the sidebar says so. The phone is the reference client from PROTOCOL.md, over real TLS.

test('Remote and Screen control switches act on the paired phone at once, with a visible indicator while screen control is on', async ({
  app,
}) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.getByRole('button', { name: 'Pair phone' }).click();
  const dialog = app.getByRole('dialog', { name: 'Pair phone' });
  const code = dialog.getByLabel('Pairing code');
  await expect(code).toHaveText(/^\d{6}$/);
  const plain = await code.textContent();
  // Granting remote at pairing makes a new code: the one shown before never gains rights.
  await dialog.getByRole('checkbox', { name: /Give this phone remote rights/ }).check();
  await expect(code).not.toHaveText(plain!);
  const pairCode = (await code.textContent())!;
  const url = (await dialog
    .locator('.kv-row', { hasText: 'Address' })
    .locator('code')
    .textContent())!;
  const fingerprint = (await dialog.locator('.fingerprint').textContent())!;

  const phone = await ReferenceClient.connect(url, fingerprint);
  try {
    const paired = await phone.pair(pairCode, 'E2E Pixel');
    expect(paired).toMatchObject({
      type: 'paired',
      rights: { remote: true, screen_control: false },
    });

    const remote = dialog.getByRole('switch', { name: 'Remote for E2E Pixel' });
    const screen = dialog.getByRole('switch', { name: 'Screen control for E2E Pixel' });
    await expect(remote).toHaveAttribute('aria-checked', 'true');
    await expect(screen).toHaveAttribute('aria-checked', 'false');
    await expect(app.locator('.screen-control-indicator')).toHaveCount(0);

    await screen.click();
    await expect(screen).toHaveAttribute('aria-checked', 'true');
    expect((await phone.next((f) => f.type === 'rights')).rights).toEqual({
      remote: true,
      screen_control: true,
    });
    await expect(dialog.getByText('Screen control on', { exact: true })).toBeVisible();
    await app.screenshot({ path: `${SCREENSHOTS}/pair-phone-rights.png` });
    await dialog.getByRole('button', { name: 'Close' }).click();
    // Outside the dialog too, while it is on.
    const indicator = app.getByRole('status').filter({ hasText: 'Screen control on: E2E Pixel' });
    await expect(indicator).toBeVisible();

    // The indicator opens the dialog; Remote off closes the phone's socket at once.
    await indicator.click();
    await remote.click();
    await expect(remote).toHaveAttribute('aria-checked', 'false');
    expect((await phone.next((f) => f.type === 'rights')).rights).toMatchObject({ remote: false });
    expect((await phone.closed).code).toBe(4005);

    await screen.click();
    await expect(screen).toHaveAttribute('aria-checked', 'false');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(app.locator('.screen-control-indicator')).toHaveCount(0);
  } finally {
    await phone.close();
  }
});
