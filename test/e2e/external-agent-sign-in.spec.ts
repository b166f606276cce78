import { agentRecord, expect, newAgentSession, openProject, test } from './acp-fixtures';
import { shots } from './fixtures';
import { say } from '../helpers/acp-steps';

// Issue 30 at the window: an external ACP agent that works only signed in (session/new answers
// auth_required) and offers two ways: the session shows a card listing them, with their
// descriptions; the one picked is sent as `authenticate` and the turn goes on.

test.use({
  agentScript: {
    requireAuth: true,
    authMethods: [
      {
        id: 'api-key',
        name: 'API key',
        description: 'Uses SCRIPTED_API_KEY from your environment',
      },
      { id: 'browser', name: 'Browser login', description: 'Opens a page to sign in' },
    ],
    turns: [[say('Signed in and ready.')]],
  },
});

test('an external agent that works only signed in asks on a card, and goes on with the way picked', async ({
  app,
  agentDir,
}) => {
  await openProject(app, 'app');
  await newAgentSession(app);
  await app.getByRole('textbox', { name: 'Message' }).fill('Make the port configurable');
  await app.keyboard.press('Enter');

  const card = app.getByRole('article', {
    name: /^scripted asks: The agent 'scripted' works only/,
  });
  await expect(card).toContainText('Agent asks');
  await expect(card.getByRole('radio')).toHaveCount(2);
  await expect(
    card.getByRole('radio', { name: 'API key: Uses SCRIPTED_API_KEY from your environment' }),
  ).toBeVisible();
  await card.getByRole('radio', { name: 'Browser login: Opens a page to sign in' }).check();
  await shots(app, 'external-agent-sign-in');
  await card.getByRole('button', { name: 'Submit' }).click();

  await expect(app.getByText('Signed in and ready.')).toBeVisible();
  await expect
    .poll(() =>
      agentRecord(agentDir)
        .filter((r) => r.method === 'authenticate')
        .map((r) => r.params?.methodId),
    )
    .toEqual(['browser']);
});
