import { test, expect, openProject, startSession } from './agent-fixtures';
import { SCREENSHOTS } from './fixtures';

const PANEL = {
  summary: 'Release checklist',
  spec: {
    root: [
      {
        type: 'Card',
        id: 'status',
        title: 'Release 1.4',
        children: [
          {
            type: 'Stack',
            direction: 'row',
            children: [
              { type: 'Badge', label: 'tests pass', tone: 'success' },
              { type: 'Badge', label: '2 warnings', tone: 'warning' },
            ],
          },
          {
            type: 'KeyValue',
            items: [
              { label: 'Branch', value: 'release/1.4' },
              { label: 'Commit', value: 'a1b2c3d' },
            ],
          },
          {
            type: 'Table',
            headers: ['Step', 'State'],
            rows: [
              ['Build', 'done'],
              ['Publish', 'waiting'],
            ],
          },
          {
            type: 'Alert',
            tone: 'warning',
            title: 'Heads up',
            text: 'The changelog is missing an entry.',
          },
          { type: 'CodeBlock', language: 'sh', code: 'npm publish --tag next' },
          { type: 'Chart', series: [1, 2, 3] },
          { type: 'Link', label: 'Release notes', href: 'https://example.com/notes' },
        ],
      },
    ],
  },
};

test('todos drive the dock, and a panel draws from the shared vocabulary with a placeholder for the unknown', async ({
  app,
  script,
}) => {
  script.push(
    {
      text: 'Planning the release.',
      toolCalls: [
        {
          name: 'update_todos',
          args: {
            todos: [
              { label: 'Run the tests', status: 'completed' },
              { label: 'Write the changelog', status: 'in_progress' },
              { label: 'Tag the release', status: 'pending' },
            ],
          },
        },
        { name: 'present_ui', args: PANEL },
      ],
    },
    { text: 'Here is where the release stands.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Where is the release?');

  const dock = app.getByRole('region', { name: 'Todos' });
  await expect(dock).toContainText('1/3 done');
  await expect(dock.locator('[aria-current="step"]')).toHaveText(/Write the changelog/);
  const panel = app.getByRole('article', { name: 'Panel: Release checklist' });
  await expect(panel.getByRole('region', { name: 'Release 1.4' })).toBeVisible();
  await expect(panel).toContainText('tests pass');
  await expect(panel.getByRole('cell', { name: 'waiting' })).toBeVisible();
  await expect(panel.getByRole('note').filter({ hasText: 'Unsupported component' })).toContainText(
    'Chart',
  );
  const link = panel.getByRole('link', { name: 'Release notes' });
  await expect(link).toHaveAttribute('href', 'https://example.com/notes');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expect(app.getByText('Here is where the release stands.')).toBeVisible();
  await app.screenshot({ path: `${SCREENSHOTS}/panel-todos.png` });
});

test('the newest todos list replaces the dock: an item the agent dropped is gone', async ({
  app,
  script,
}) => {
  script.push(
    {
      toolCalls: [
        {
          name: 'update_todos',
          args: {
            todos: [
              { label: 'Alpha', status: 'in_progress' },
              { label: 'Beta', status: 'pending' },
            ],
          },
        },
      ],
    },
    {
      toolCalls: [
        { name: 'update_todos', args: { todos: [{ label: 'Beta', status: 'in_progress' }] } },
      ],
    },
    { text: 'Working on Beta.' },
  );
  await openProject(app, 'app');
  await startSession(app, 'Go');
  await expect(app.getByText('Working on Beta.')).toBeVisible();
  const dock = app.getByRole('region', { name: 'Todos' });
  await expect(dock.getByRole('listitem')).toHaveCount(1);
  await expect(dock).toContainText('Beta');
  await expect(dock).not.toContainText('Alpha');
});
