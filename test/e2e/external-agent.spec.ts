import { agentRecord, expect, openProject, test } from './acp-fixtures';
import { shots } from './fixtures';
import { tabTo } from './keyboard';

// Issue 30 parts 1-2 at the window: a session run by an external ACP agent (the scripted agent
// written with the official SDK, test/fixtures/acp-scripted-agent.ts, configured as
// agents.scripted), chosen in "New session" and driven by keyboard alone: its thinking and answer,
// its `/` command, its edit as a diff card, its command as a shell card with a console in the
// dock (its terminal approved like the app's own shell call), its plan in the todo dock, and a
// permission request answered with the agent's own options.

const OPTIONS = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

const TURN = [
  {
    update: {
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { name: 'review', description: 'Review the working tree', input: { hint: '[path]' } },
      ],
    },
  },
  {
    update: {
      sessionUpdate: 'agent_thought_chunk',
      content: { type: 'text', text: 'The port is a constant in src/server.ts.' },
    },
  },
  {
    update: {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'I will make the **port** configurable.' },
    },
  },
  {
    update: {
      sessionUpdate: 'plan',
      entries: [
        { content: 'Read src/server.ts', priority: 'high', status: 'completed' },
        { content: 'Make the port configurable', priority: 'high', status: 'in_progress' },
        { content: 'Run the tests', priority: 'medium', status: 'pending' },
      ],
    },
  },
  {
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 'edit-1',
      title: 'Edit src/server.ts',
      kind: 'edit',
      status: 'completed',
      content: [
        {
          type: 'diff',
          path: 'ROOT/src/server.ts',
          oldText: 'const PORT = 3000;\nexport default PORT;\n',
          newText: 'const PORT = Number(process.env.PORT ?? 3000);\nexport default PORT;\n',
        },
      ],
    },
  },
  { terminal: { command: 'sh', args: ['-c', 'echo tests passed'], toolCallId: 'run-1' } },
  {
    permission: {
      toolCall: {
        toolCallId: 'push-1',
        title: 'Push the branch',
        kind: 'execute',
        rawInput: { command: 'git push origin main' },
      },
      options: OPTIONS,
    },
  },
  {
    update: {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'push-1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'Pushed main to origin.' } }],
    },
  },
  {
    update: {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'Done: the port comes from PORT.' },
    },
  },
];

test.use({ agentScript: { turns: [TURN] } });

/** What the agent got back for its permission request. */
const permissionAnswer = (dir: string) =>
  agentRecord(dir).find((r) => r.step === 'permission')?.result;

test('a session on an external ACP agent, chosen and answered by keyboard', async ({
  app,
  agentDir,
}) => {
  await openProject(app, 'app');
  const sessions = app.getByRole('navigation', { name: 'Sessions' });

  // New session: the app's own agent first, the configured one, the presets off with why.
  await tabTo(app, sessions.getByRole('button', { name: 'New session: agent, worktree…' }));
  await app.keyboard.press('Enter');
  const dialog = app.getByRole('dialog', { name: 'New session' });
  const agents = dialog.getByRole('group', { name: 'Agent' });
  // Where it works is focused first (this project is no git repository: the checkout); Tab
  // reaches the agent group on the app's own agent.
  await expect(dialog.getByRole('radio', { name: /In the checkout/ })).toBeFocused();
  await tabTo(app, agents.getByRole('radio', { name: 'Mewbo (this app)' }));
  const claude = agents.getByRole('radio', { name: /Claude Code/ });
  await expect(claude).toBeDisabled();
  await expect(claude).toHaveAccessibleDescription(/'claude-code-acp' is not on PATH/);
  await app.keyboard.press('ArrowDown');
  await expect(agents.getByRole('radio', { name: /scripted/ })).toBeChecked();
  await app.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);

  // The header names the agent; it can still change before the first message.
  const agentSelect = app.getByRole('combobox', { name: 'Agent' });
  await expect(agentSelect).toHaveValue('scripted');
  await expect(agentSelect).toBeEnabled();
  await expect(app.getByRole('combobox', { name: 'Model' })).toHaveCount(0);

  const box = app.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeFocused();
  await app.keyboard.type('Make the port configurable');
  await app.keyboard.press('Enter');

  // Its thinking, folded once logged, and its answer as markdown.
  const answer = app.getByLabel('Agent').filter({ hasText: 'I will make the port configurable.' });
  await expect(answer.locator('strong', { hasText: 'port' })).toBeVisible();
  // The agent's terminal/create is judged like the app's own shell call: Approve by keyboard.
  const shell = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(shell.getByLabel('Full command')).toContainText("sh -c 'echo tests passed'");
  await app.keyboard.press('Alt+A');
  await expect(shell).toContainText('Approved');

  // The approval card: the agent's own options, with their labels, in its order.
  const card = app.getByRole('article', { name: 'Approval: Push the branch' });
  const choices = card.getByRole('group', { name: "The agent's choices" });
  await expect(choices.getByRole('button')).toHaveText([
    /^Allow once Alt\+A$/,
    /^Always allow $/,
    /^Reject Alt\+D$/,
  ]);
  await expect(card.getByLabel('Full command')).toContainText('git push origin main');
  await expect(agentSelect).toBeDisabled();

  // The edit as a diff card, the command as a shell card whose console is in the dock.
  const edit = app.getByRole('article', { name: /Edit/ }).filter({ hasText: 'src/server.ts' });
  await expect(edit.locator('.diff')).toContainText('process.env.PORT');
  const run = app.getByRole('article', { name: "$ sh -c 'echo tests passed'" });
  await expect(run).toContainText('tests passed');
  await expect(run.getByRole('button', { name: /Show console/ })).toBeVisible();
  // The plan as the todo dock.
  const dock = app.getByTestId('dock');
  await expect(dock.locator('.todo-label')).toHaveText([
    'Read src/server.ts',
    'Make the port configurable',
    'Run the tests',
  ]);

  // The agent's choices keep one row, also on a card the open dock narrows at 900 px.
  await shots(app, 'external-agent-approval', async () => {
    const tops = await choices
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
  });

  // Alt+A answers with the agent's "allow once"; the decision names it and the agent gets it.
  await app.keyboard.press('Alt+A');
  await expect(card).toContainText('Approved');
  await expect(card).toContainText('Allow once, by you');
  await expect(app.getByText('Done: the port comes from PORT.')).toBeVisible();
  await expect
    .poll(() => permissionAnswer(agentDir))
    .toEqual({ outcome: { outcome: 'selected', optionId: 'allow-once' } });
  await answer.getByRole('button', { name: 'Show thinking' }).click();
  await expect(answer.getByLabel('Thinking')).toHaveText(
    'The port is a constant in src/server.ts.',
  );

  // Its `/` command, marked as the agent's, in the composer's menu.
  await box.focus();
  await app.keyboard.type('/re');
  const menu = app.getByRole('listbox', { name: 'Commands' });
  const review = menu.getByRole('option', { name: /\/review/ });
  await expect(review).toContainText("the agent's");
  await expect(review).toContainText('[path]');

  // Its console in the dock.
  await run.getByRole('button', { name: /Show console/ }).click();
  await expect(dock.getByText('tests passed').first()).toBeVisible();
  await shots(app, 'external-agent-console');
});
