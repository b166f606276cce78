import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, shots } from './fixtures';

// Remote projects in the picker (issue #29 part 1): "Connect to host..." by keyboard alone, with
// the aliases of ~/.ssh/config offered, and the project listed with its host and link state. The
// host's HOME holds a ~/.ssh/config of its own; nothing here connects to an SSH host.

const test = base.extend({
  hostEnv: async ({ home }, use) => {
    const userHome = join(home, 'user-home');
    mkdirSync(join(userHome, '.ssh'), { recursive: true });
    writeFileSync(
      join(userHome, '.ssh', 'config'),
      'Host gpu\n  HostName 10.0.0.7\nHost *.lab\n  User ana\nHost build-box lab\n',
    );
    await use({ HOME: userHome });
  },
});

async function openPicker(app: Page) {
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await expect(picker).toBeVisible();
  return picker;
}

test('a remote project is added from "Connect to host..." by keyboard and listed with its host', async ({
  app,
}) => {
  const picker = await openPicker(app);
  // The last action of the list: Up from the first option reaches it.
  await app.keyboard.press('ArrowUp');
  await expect(picker.getByRole('option', { name: /Connect to host/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await app.keyboard.press('Enter');
  const connect = app.getByRole('dialog', { name: 'Connect to host' });
  await expect(connect).toBeVisible();
  // The aliases of ~/.ssh/config, patterns left out.
  await expect(connect.locator('datalist option')).toHaveCount(3);
  expect(
    await connect
      .locator('datalist option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('value'))),
  ).toEqual(['gpu', 'build-box', 'lab']);
  await app.keyboard.type('gpu');
  await app.keyboard.press('Tab');
  await app.keyboard.type('/srv/my model');
  await expect(connect).toContainText('ssh://gpu/srv/my%20model');
  await shots(app, 'connect-host');
  await app.keyboard.press('Enter');

  await expect(connect).toHaveCount(0);
  const added = picker.getByRole('option', { name: /my model/ }).first();
  await expect(added).toHaveAttribute('aria-selected', 'true');
  await expect(added).toContainText('gpu:/srv/my model');
  await expect(added).toContainText('remote');
  await expect(added).toContainText('disconnected');
  // The whole list, with the remote project among the local ones.
  await app.keyboard.press('Control+A');
  await app.keyboard.press('Backspace');
  await expect(picker.getByRole('option', { name: /my model/ }).first()).toContainText('gpu');
  await shots(app, 'picker-remote', async () => {
    const option = picker.getByRole('option', { name: /my model/ }).first();
    await expect(option.locator('.picker-detail')).toBeVisible();
  });
});

test('an ssh:// URL typed in the picker is added, and a hostile one is refused with the reason', async ({
  app,
}) => {
  const picker = await openPicker(app);
  await app.keyboard.type('ssh://-oProxyCommand=sh/srv');
  await expect(picker.getByRole('option', { name: /Add remote project/ })).toBeVisible();
  await app.keyboard.press('Enter');
  await expect(picker.getByRole('alert')).toContainText(
    "starts with '-', which ssh would read as an option",
  );

  await app.keyboard.press('Control+A');
  await app.keyboard.type('ssh://ana@lab:2222/data/run');
  await app.keyboard.press('Enter');
  const added = picker.getByRole('option', { name: /run/ }).first();
  await expect(added).toContainText('ana@lab:/data/run');
  await expect(added).toContainText('disconnected');
});

test('the connect form says what is missing before it asks the host', async ({ app }) => {
  await openPicker(app);
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('Enter');
  const connect = app.getByRole('dialog', { name: 'Connect to host' });
  await app.keyboard.type('gpu');
  await app.keyboard.press('Tab');
  await app.keyboard.type('srv/app');
  await app.keyboard.press('Enter');
  await expect(connect.getByRole('alert')).toContainText('absolute path');
  // Escape goes back to the picker, not out of it.
  await app.keyboard.press('Escape');
  await expect(app.getByRole('dialog', { name: 'Open project' })).toBeVisible();
});
