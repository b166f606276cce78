import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

// #17.3: a session is titled from its first message (and can be renamed), and the sidebar search
// finds sessions by what was said in them, not only by title.

test('the first message titles the session, and search finds it by what the agent said', async ({
  app,
  script,
}) => {
  script.push({ text: 'The flaky part is the reconnect backoff in the transport.' });
  await openProject(app, 'app');
  await startSession(app, 'Why is CI red on main?\nIt started yesterday.');
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar.locator('.session.active .title')).toHaveText('Why is CI red on main?');
  await expect(app.locator('.session-title h1')).toHaveText('Why is CI red on main?');
  await expect(app.getByText('reconnect backoff')).toBeVisible();

  // A second, unrelated session.
  await sidebar.getByRole('button', { name: 'New session', exact: true }).click();
  await expect(sidebar.locator('.session')).toHaveCount(2);

  const search = sidebar.getByRole('searchbox', { name: 'Search sessions' });
  await search.fill('backoff');
  await expect(sidebar.locator('.session')).toHaveCount(1);
  await expect(sidebar.locator('.session .snippet')).toContainText('reconnect backoff');
  await app.screenshot({ path: `${SCREENSHOTS}/search-by-content.png` });
  // Keyboard: from the search box down into the list, Enter opens it.
  await sidebar.locator('.session').first().focus();
  await app.keyboard.press('Enter');
  await expect(app.locator('.session-title h1')).toHaveText('Why is CI red on main?');

  // The title stays editable: F2 on the row.
  await search.fill('');
  await sidebar.locator('.session.active').focus();
  await app.keyboard.press('F2');
  const title = sidebar.getByRole('textbox', { name: 'Session title' });
  await title.fill('CI backoff flake');
  await title.press('Enter');
  await expect(app.locator('.session-title h1')).toHaveText('CI backoff flake');
});
