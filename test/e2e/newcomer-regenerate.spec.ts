import { test, expect, openProject, startSession } from './agent-fixtures';
import { shots } from './fixtures';

// #26.6: Retry sat on the user's message and asked the question a second time (the model saw
// question, answer, question). Regenerate sits under the answer: it makes the answer again in
// its place, asks the question once, keeps the earlier answer as a version, and gives the focus
// back to the message box.

/** How many times `needle` occurs in `hay`. */
const count = (hay: string, needle: string) => hay.split(needle).length - 1;

test('Regenerate replaces the answer, sends the question once and keeps the first as a version', async ({
  app,
  script,
}) => {
  script.push({ text: 'Port 3000 it is.' }, (req) => ({
    text:
      count(req.transcript, 'Which port should the server use?') === 1 &&
      !req.transcript.includes('Port 3000 it is.')
        ? 'Port 8080, on second thought.'
        : `the model saw: ${req.transcript}`,
  }));
  await openProject(app, 'app');
  await startSession(app, 'Which port should the server use?');
  const conversation = app.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByText('Port 3000 it is.')).toBeVisible();

  await conversation
    .getByRole('group', { name: 'Answer' })
    .getByRole('button', {
      name: 'Regenerate',
    })
    .click();
  await expect(conversation.getByText('Port 8080, on second thought.')).toBeVisible();
  await expect(conversation.getByText('Port 3000 it is.')).toHaveCount(0);
  // The question is in the conversation once, and the message box has the focus again.
  await expect(app.getByLabel('You')).toHaveCount(1);
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeFocused();
  expect(script.requests).toHaveLength(2);

  const bar = conversation.getByRole('group', { name: 'Answer' });
  await expect(bar).toContainText('Version 2 of 2');
  await bar.getByRole('button', { name: 'Previous version' }).click();
  await expect(conversation.getByText('Port 3000 it is.')).toBeVisible();
  await expect(conversation.getByText('Port 8080, on second thought.')).toHaveCount(0);
  await expect(bar).toContainText('Version 1 of 2');
  await shots(app, 'regenerate-versions');

  // The versions are in the session: a reload shows the latest, and the first one is still there.
  await app.reload();
  await expect(conversation.getByText('Port 8080, on second thought.')).toBeVisible();
  await conversation.getByRole('button', { name: 'Previous version' }).click();
  await expect(conversation.getByText('Port 3000 it is.')).toBeVisible();
  // No Retry on the question any more: it would ask it twice.
  await expect(app.getByLabel('You').getByRole('button', { name: 'Retry' })).toHaveCount(0);
});
