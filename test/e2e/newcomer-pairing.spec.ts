import { connect } from 'node:net';
import type { Locator } from '@playwright/test';
import { test, expect, shots } from './fixtures';
import { ReferenceClient } from '../helpers/reference-remote-client';

// #26.6: opening "Pair phone" turned the LAN listener on and left it on after the dialog closed,
// without saying so. The dialog says it listens while open; closed with no phone paired, the
// listener closes (its port refuses connections); reopened, a new listener and a new code; once
// a phone paired, the listener stays for it.

/** Whether a TCP connection to the listener's address is accepted now. */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function address(dialog: Locator): Promise<string> {
  return (await dialog.locator('.kv-row', { hasText: 'Address' }).locator('code').textContent())!;
}

test('closed with no phone paired, the pairing listener closes; reopened, a new one with a new code', async ({
  app,
}) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  const open = app.getByRole('button', { name: 'Pair phone' });
  await open.click();
  const dialog = app.getByRole('dialog', { name: 'Pair phone' });
  const code = dialog.getByLabel('Pairing code');
  await expect(code).toHaveText(/^\d{6}$/);
  const first = (await code.textContent())!;
  await expect(dialog.getByRole('note')).toContainText(
    'Closed with no phone paired, it stops listening',
  );
  const url = await address(dialog);
  expect(await accepts(url)).toBe(true);
  await shots(app, 'pair-phone-note');

  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => accepts(url)).toBe(false);

  await open.click();
  await expect(code).toHaveText(/^\d{6}$/);
  expect(await code.textContent()).not.toBe(first);
  expect(await accepts(await address(dialog))).toBe(true);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => accepts(url)).toBe(false);
});

test('once a phone paired, closing the dialog leaves the listener on for it', async ({ app }) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.getByRole('button', { name: 'Pair phone' }).click();
  const dialog = app.getByRole('dialog', { name: 'Pair phone' });
  const code = dialog.getByLabel('Pairing code');
  await expect(code).toHaveText(/^\d{6}$/);
  const url = await address(dialog);
  const fingerprint = (await dialog.locator('.fingerprint').textContent())!;
  const phone = await ReferenceClient.connect(url, fingerprint);
  try {
    expect(await phone.pair((await code.textContent())!, 'E2E Pixel')).toMatchObject({
      type: 'paired',
    });
    await expect(dialog.getByRole('region', { name: 'Paired phones' })).toContainText('E2E Pixel');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    // Opened and closed again with the phone paired before: still on, the phone still attached.
    await app.getByRole('button', { name: 'Pair phone' }).click();
    await expect(code).toHaveText(/^\d{6}$/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await app.getByRole('button', { name: 'Pair phone' }).click();
    await expect(code).toHaveText(/^\d{6}$/);
    const row = dialog.getByRole('region', { name: 'Paired phones' }).getByRole('listitem');
    await expect(row.filter({ hasText: 'E2E Pixel' }).locator('.muted').first()).toHaveText(
      /^connected/,
    );
    expect(await accepts(url)).toBe(true);
  } finally {
    await phone.close();
  }
});
