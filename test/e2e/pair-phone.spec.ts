import { test, expect, SCREENSHOTS } from './fixtures';

test('Pair phone shows a QR code, the one-time code as text, the URL and the fingerprint', async ({
  app,
}) => {
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.getByRole('button', { name: 'Pair phone' }).click();
  const dialog = app.getByRole('dialog', { name: 'Pair phone' });
  await expect(dialog.getByRole('img', { name: /QR code for https:\/\// })).toBeVisible();
  await expect(dialog.getByLabel('Pairing code')).toHaveText(/^\d{6}$/);
  await expect(dialog.locator('.fingerprint')).toHaveText(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  await expect(dialog).toContainText(/https:\/\/[^\s]+:\d+\//);
  await expect(dialog).toContainText(/Expires\s*in \d:\d\d/);
  const first = await dialog.getByLabel('Pairing code').textContent();
  await app.screenshot({ path: `${SCREENSHOTS}/pair-phone.png` });
  await dialog.getByRole('button', { name: 'New code' }).click();
  await expect(dialog.getByLabel('Pairing code')).not.toHaveText(first!);
  await expect(dialog.getByRole('region', { name: 'Paired phones' })).toContainText('None yet.');
});
