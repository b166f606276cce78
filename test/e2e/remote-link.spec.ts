import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { test as agentTest, expect } from './agent-fixtures';
import { shots } from './fixtures';
import { startSshd, type Sshd } from '../helpers/sshd';

// A session on a remote project as the desktop shows it (issue #29), in Chromium against
// `mewbo serve` and a real sshd: the sidebar row says its host and its link (disconnected before
// the first tool, connected, reconnecting while the connection is killed and the host does not
// answer, connected again once it does), the header says host and path, Settings says the host's
// Landlock, and the picker cuts long remote paths at their start, keeping the folder's end.

/** A deep folder on the host: in the picker only its end fits. */
const DEEP = 'teams/research/vision/experiments/2026/december/model-training-final';

const test = agentTest.extend<{ sshd: Sshd }>({
  // eslint-disable-next-line no-empty-pattern
  sshd: async ({}, use) => {
    const sshd = await startSshd();
    await use(sshd);
    await sshd.stop();
  },
  config: async ({ sshd }, use) => {
    mkdirSync(join(sshd.remoteHome, 'site'));
    mkdirSync(join(sshd.remoteHome, DEEP), { recursive: true });
    await use({
      remote: { ssh_config: sshd.clientConfig },
      permission_mode: 'auto',
      remote_projects: {
        site: { url: `ssh://${sshd.alias}${sshd.remoteHome}/site` },
        training: { url: `ssh://${sshd.alias}${sshd.remoteHome}/${DEEP}` },
      },
    });
  },
});

/** The sshd listener's pid (its PidFile): stopped, it takes connections but never answers. */
function listenerPid(sshd: Sshd): number {
  return Number(readFileSync(join(sshd.dir, 'sshd.pid'), 'utf8'));
}

/** The detail's text overflows on the left (its start is cut) and ends at the box's right edge. */
async function cutAtStart(detail: Locator): Promise<{ cutLeft: boolean; endShown: boolean }> {
  return detail.evaluate((box) => {
    const text = box.firstElementChild!.getBoundingClientRect();
    const outer = box.getBoundingClientRect();
    return {
      cutLeft: text.left < outer.left - 1,
      endShown: Math.abs(text.right - outer.right) < 2,
    };
  });
}

test('a remote session shows its host and link in the sidebar, host and path in its header', async ({
  app,
  sshd,
  script,
}) => {
  // Install on the host, two turns, a reconnect, three sets of screenshots, on a loaded machine.
  test.setTimeout(300_000);
  const folder = `${sshd.remoteHome}/site`;
  script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'printf %s "$HOME"' } }] },
    { text: 'Working on the host.' },
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo back' } }] },
    { text: 'Back again.' },
  );
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);

  // The picker: the deep remote path loses its start, its end (the folder) stays in view.
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  const deep = picker.getByRole('option', { name: /training/ }).first();
  await expect(deep.locator('.picker-detail')).toContainText('model-training-final');
  await app.setViewportSize({ width: 900, height: 650 });
  expect(await cutAtStart(deep.locator('.picker-detail'))).toEqual({
    cutLeft: true,
    endShown: true,
  });
  await shots(app, 'picker-remote-paths', async () => {
    expect((await cutAtStart(deep.locator('.picker-detail'))).endShown).toBe(true);
  });
  await app.setViewportSize({ width: 1440, height: 900 });

  await app.keyboard.type('site');
  await expect(picker.getByRole('option', { name: /site/ }).first()).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await app.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  const row = sidebar.locator('.row-remote').first();
  // Before its first tool nothing has connected the session.
  await expect(row).toHaveAccessibleName(`on ${sshd.alias}, disconnected`);

  await app.getByRole('textbox', { name: 'Message' }).fill('where are you?');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Working on the host.')).toBeVisible({ timeout: 60_000 });
  await expect(row).toHaveAccessibleName(`on ${sshd.alias}, connected`);
  await expect(row.locator('.row-host')).toHaveText(sshd.alias);
  const place = app.locator('.session-title .remote-place');
  await expect(place).toHaveText(`${sshd.alias}:${folder}`);
  await expect(place).toHaveAttribute('title', `ssh://${sshd.alias}${folder}`);

  // Settings: the host's own Landlock, beside this computer's.
  await app.getByRole('button', { name: 'Settings' }).click();
  const settings = app.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Agent & sandbox' }).click();
  await expect(settings.getByRole('status', { name: 'Sandbox status' })).toContainText(
    new RegExp(`On ssh://${sshd.alias}/: Landlock is on \\(kernel ABI \\d+\\)`),
  );
  await app.keyboard.press('Escape');
  await expect(settings).toHaveCount(0);
  await shots(app, 'remote-session-link', async () => {
    await expect(row).toHaveAccessibleName(`on ${sshd.alias}, connected`);
  });

  // The connection killed, and the host not answering: the app keeps trying.
  const listener = listenerPid(sshd);
  process.kill(listener, 'SIGSTOP');
  try {
    for (const pid of sshd.clientPids('master')) process.kill(pid, 'SIGKILL');
    await expect(row).toHaveAccessibleName(`on ${sshd.alias}, reconnecting`, { timeout: 30_000 });
    await shots(app, 'remote-session-reconnecting');
  } finally {
    process.kill(listener, 'SIGCONT');
  }
  await expect(row).toHaveAccessibleName(`on ${sshd.alias}, connected`, { timeout: 60_000 });
  // And the session works on the host again.
  await app.getByRole('textbox', { name: 'Message' }).fill('again');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Back again.')).toBeVisible({ timeout: 60_000 });
  expect(readdirSync(join(sshd.remoteHome, '.mewbo-remote')).length).toBeGreaterThan(0);
});
