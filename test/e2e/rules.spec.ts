import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, openProject, startSession } from './agent-fixtures';

// Issue 20 in the app: "Always allow" on an approval adds a rule that takes effect on the next
// call; a hook's run shows as a small card.

const shell = (command: string) => ({ name: 'aider_shell_tool', args: { command } });

test('"Always allow" adds the rule everywhere, and the next matching call runs without asking', async ({
  app,
  script,
  home,
}) => {
  script.push(
    { toolCalls: [shell('echo hi one')] },
    { toolCalls: [shell('echo hi two')] },
    (req) => ({ text: req.transcript.includes('hi two') ? 'Both ran.' : 'second did not run' }),
  );
  await openProject(app, 'app');
  await startSession(app, 'Say hi twice');
  const approval = app.getByRole('article', { name: 'Approval: aider_shell_tool' });
  await expect(approval.getByLabel('Rule to add')).toHaveText('aider_shell_tool(echo hi:*)');
  await approval.getByLabel('Where the rule applies').selectOption('user');
  await approval.getByRole('button', { name: 'Always allow' }).click();
  await expect(app.getByText('Both ran.')).toBeVisible();
  // One approval only: the second call matched the new rule.
  await expect(app.getByRole('article', { name: 'Approval: aider_shell_tool' })).toHaveCount(1);
  await expect(approval).toContainText('always: aider_shell_tool(echo hi:*) (everywhere)');
  const config = JSON.parse(readFileSync(join(home, 'configs', 'app.json'), 'utf8'));
  expect(config.permissions.allow).toContain('aider_shell_tool(echo hi:*)');
});

test.describe('hooks', () => {
  test.use({
    config: {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ command: 'echo "not on a Friday" >&2; exit 2' }] },
        ],
      },
    },
  });

  test('a hook that blocks a call shows as a card with its reason', async ({ app, script }) => {
    script.push({ toolCalls: [shell('echo deploy')] }, { text: 'Blocked, as the hook said.' });
    await openProject(app, 'app');
    await startSession(app, 'Deploy');
    const card = app.getByRole('article', { name: 'Hook: PreToolUse' });
    await expect(card).toContainText('PreToolUse hook blocked');
    await expect(card.getByLabel('Hook output')).toContainText('not on a Friday');
    await expect(app.getByText('Blocked, as the hook said.')).toBeVisible();
  });
});
