import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

const QUESTION = {
  questions: [
    {
      header: 'Port',
      question: 'Which default port should the server use?',
      options: [
        { label: '3000', description: 'Keep the current default' },
        { label: '8080', description: 'What the deploy target expects' },
      ],
      multi_select: false,
    },
  ],
};

test('a question is answered with an option and the run continues in place', async ({
  app,
  script,
}) => {
  script.push(
    { text: 'One decision first.', toolCalls: [{ name: 'ask_user_question', args: QUESTION }] },
    (req) => ({
      text: req.transcript.includes('8080')
        ? 'Using 8080 as the default.'
        : `answer not seen: ${req.transcript.slice(-300)}`,
    }),
  );
  await openProject(app, 'app');
  await startSession(app, 'Pick a port');
  const card = app.getByRole('article', { name: 'Question: Port' });
  await expect(card).toContainText('Which default port should the server use?');
  await expect(card.getByRole('button', { name: 'Answer' })).toBeDisabled();
  await app.screenshot({ path: `${SCREENSHOTS}/question.png` });
  await card.getByRole('radio', { name: /8080/ }).check();
  await card.getByRole('button', { name: 'Answer' }).click();
  await expect(app.getByText('Using 8080 as the default.')).toBeVisible();
  await expect(card).toContainText('answered');
  await expect(card).toContainText('8080');
});

test('free text answers a question that offers options', async ({ app, script }) => {
  script.push({ toolCalls: [{ name: 'ask_user_question', args: QUESTION }] }, (req) => ({
    text: req.transcript.includes('4000 please') ? 'Using 4000.' : 'free text not seen',
  }));
  await openProject(app, 'app');
  await startSession(app, 'Pick a port');
  const card = app.getByRole('article', { name: 'Question: Port' });
  await card.getByRole('textbox', { name: /Other answer/ }).fill('4000 please');
  await card.getByRole('button', { name: 'Answer' }).click();
  await expect(app.getByText('Using 4000.')).toBeVisible();
});

test('a question whose wait timed out is still answerable, and the answer arrives as a new message', async ({
  app,
  script,
}) => {
  script.push(
    { toolCalls: [{ name: 'ask_user_question', args: { ...QUESTION, timeout_seconds: 1 } }] },
    { text: 'No answer in time; I kept 3000 for now.' },
    (req) => ({
      text: req.transcript.includes('8080')
        ? 'Switching to 8080 as you asked.'
        : 'late answer not seen',
    }),
  );
  await openProject(app, 'app');
  await startSession(app, 'Pick a port');
  await expect(app.getByText('No answer in time; I kept 3000 for now.')).toBeVisible({
    timeout: 15_000,
  });
  const card = app.getByRole('article', { name: 'Question: Port' });
  await expect(card).toContainText('You can still answer');
  await card.getByRole('radio', { name: /8080/ }).check();
  await card.getByRole('button', { name: 'Answer' }).click();
  await expect(app.getByText('Switching to 8080 as you asked.')).toBeVisible();
  await expect(card).toContainText('answered late');
});
