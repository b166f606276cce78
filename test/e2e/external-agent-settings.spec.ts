import { agentRecord, expect, newAgentSession, openProject, test } from './acp-fixtures';
import { shots } from './fixtures';

// Issue 30 at the window: what an external ACP agent says of itself fills the session header:
// its own modes in the mode select (chosen: session/set_mode), its settings as controls
// (changed: session/set_config_option), its context use and cost as the meter, its title.

test.use({
  agentScript: {
    modes: {
      currentModeId: 'default',
      availableModes: [
        { id: 'default', name: 'Default', description: 'Asks before edits' },
        { id: 'architect', name: 'Architect', description: 'Designs, edits nothing' },
      ],
    },
    configOptions: [
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: 'sonnet',
        options: [
          { value: 'sonnet', name: 'Sonnet' },
          { value: 'opus', name: 'Opus', description: 'Slower, stronger' },
        ],
      },
      { id: 'fast', name: 'Fast mode', type: 'boolean', currentValue: false },
    ],
    turns: [
      [
        {
          update: {
            sessionUpdate: 'usage_update',
            used: 50_000,
            size: 200_000,
            cost: { amount: 0.42, currency: 'USD' },
          },
        },
        {
          update: { sessionUpdate: 'session_info_update', title: 'Make the port configurable' },
        },
        {
          update: {
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'text', text: 'Ready.' },
          },
        },
      ],
    ],
  },
});

/** The params of each request `method` the agent received, in order. */
const sent = (dir: string, method: string) =>
  agentRecord(dir)
    .filter((r) => r.method === method)
    .map((r) => r.params);

test('an external agent’s modes, settings, usage and title in the session header', async ({
  app,
  agentDir,
}) => {
  await openProject(app, 'app');
  await newAgentSession(app);
  // Before the agent ran, the app's permission modes are all there is.
  await expect(app.getByRole('combobox', { name: 'Permission mode' })).toBeVisible();
  await app.getByRole('textbox', { name: 'Message' }).fill('Make the port configurable');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Ready.')).toBeVisible();

  const header = app.locator('.session-header');
  await expect(header.getByRole('heading', { level: 1 })).toHaveText('Make the port configurable');
  const meter = header.getByRole('meter', { name: 'Context window' });
  await expect(meter).toHaveAttribute('aria-valuenow', '25');
  await expect(header.getByLabel('Cost so far')).toHaveText('0.42 USD');

  // The agent's own modes fill the mode select; picking one sends it to the agent.
  const modes = header.getByRole('combobox', { name: 'Agent mode' });
  await expect(modes).toHaveValue('default');
  await expect(modes.getByRole('option')).toHaveText(['Default', 'Architect']);
  await expect(header.getByRole('combobox', { name: 'Permission mode' })).toHaveCount(0);
  await modes.focus();
  await modes.selectOption('architect');
  await expect
    .poll(() => sent(agentDir, 'session/set_mode'))
    .toEqual([expect.objectContaining({ modeId: 'architect' })]);
  await expect(modes).toHaveValue('architect');

  // Its settings: a select and a switch, each change sent as session/set_config_option.
  const model = header.getByRole('combobox', { name: 'Model' });
  await expect(model).toHaveValue('sonnet');
  await model.selectOption('opus');
  const fast = header.getByRole('checkbox', { name: 'Fast mode' });
  await expect(fast).not.toBeChecked();
  // The box shows what the agent answered, so it turns on once the agent has it.
  await fast.click();
  await expect
    .poll(() => sent(agentDir, 'session/set_config_option'))
    .toEqual([
      expect.objectContaining({ configId: 'model', value: 'opus' }),
      expect.objectContaining({ configId: 'fast', value: true }),
    ]);
  await expect(model).toHaveValue('opus');
  await expect(fast).toBeChecked();

  await shots(app, 'external-agent-settings');
});
