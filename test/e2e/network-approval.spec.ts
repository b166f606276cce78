import { test as base, expect, openProject, startSession } from './agent-fixtures';
import { localName, startHttpOrigin, type Origin } from '../helpers/net-fixtures';

// Issue 25 part 1 in the browser (`mewbo serve`): in ask mode, a shell's curl to a name no
// allowlist names shows "connect to NAME:PORT" as an approval card while the request waits (the
// server has seen nothing), and Alt+A lets it through. The name is this machine's host name
// (/etc/hosts), the server a local one whose port is in sandbox.network.local_ports, so only the
// ask stands between the confined curl and it.

interface Local {
  name: string;
  origin: Origin;
}

const test = base.extend<{ local: Local | null }>({
  // eslint-disable-next-line no-empty-pattern
  local: async ({}, use) => {
    const found = await localName();
    if (!found) return use(null);
    const origin = await startHttpOrigin(found.address);
    await use({ name: found.name, origin });
    await origin.close();
  },
  config: async ({ local }, use) =>
    use(local ? { sandbox: { network: { local_ports: [local.origin.port] } } } : {}),
});

test('a curl to a new name waits on its approval card, and Alt+A lets it through', async ({
  app,
  script,
  local,
}) => {
  test.skip(local === null, 'this machine has no host name resolving to itself');
  const { name, origin } = local!;
  const url = `http://${name}:${origin.port}/from-the-card`;
  script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: `curl -sS ${url}` } }] },
    { text: 'The server answered.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Fetch the page');

  const shell = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(shell).toContainText(url);
  await app.keyboard.press('Alt+A');
  await expect(shell).toContainText('Approved');

  const card = app.getByRole('article', { name: 'Approval: Network' });
  await expect(card).toContainText(`connect to ${name}:${origin.port}`);
  await expect(card).toContainText('connections to ' + name);
  await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();
  // The request waits behind the card: nothing reached the server yet.
  expect(origin.seen).toEqual([]);
  await app.keyboard.press('Alt+A');
  await expect(card).toContainText('Approved');
  await expect(app.getByText('The server answered.')).toBeVisible();
  expect(origin.seen.map((s) => s.url)).toEqual(['/from-the-card']);
  expect(origin.seen[0]!.host).toBe(`${name}:${origin.port}`);
});
