import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  await expect(approval.getByLabel('Rule to add')).toHaveText('commands that start with “echo hi”');
  await expect(approval.getByLabel('Rule to add')).toHaveAttribute(
    'title',
    'Rule: aider_shell_tool(echo hi:*)',
  );
  await approval.getByLabel('Where the rule applies').selectOption('user');
  await approval.getByRole('button', { name: 'Always allow' }).click();
  await expect(app.getByText('Both ran.')).toBeVisible();
  // One approval only: the second call matched the new rule.
  await expect(app.getByRole('article', { name: 'Approval: aider_shell_tool' })).toHaveCount(1);
  await expect(approval).toContainText('always: commands that start with “echo hi” (everywhere)');
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

test.describe('Settings', () => {
  test.use({
    config: {
      permissions: { allow: ['Bash(npm test:*)', 'Bash(npm'], deny: ['Read(.env)'] },
    },
  });

  test('lists rules by scope with their origin and removes one; lists skills and the bad entries by file and line', async ({
    app,
    home,
  }) => {
    mkdirSync(join(home, 'skills', 'deploy'), { recursive: true });
    writeFileSync(
      join(home, 'skills', 'deploy', 'SKILL.md'),
      '---\nname: deploy\ndescription: Deploy the app\n---\nSteps\n',
    );
    await expect(app.getByText('Connecting to the host')).toHaveCount(0);
    await app.getByRole('button', { name: 'Settings' }).click();
    const dialog = app.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('tab', { name: 'Rules, hooks & skills' }).click();
    const everywhere = dialog.getByRole('region', { name: /Rules: Everywhere/ });
    await expect(everywhere).toContainText('Bash(npm test:*)');
    await expect(everywhere).toContainText('Read(.env)');
    await expect(everywhere).toContainText(/configs\/app\.json:\d+/);
    await expect(dialog.getByRole('region', { name: /Problems/ })).toContainText(
      /configs\/app\.json:\d+: permissions\.allow: "Bash\(npm"/,
    );
    await expect(dialog.getByRole('region', { name: 'Skills', exact: true })).toContainText(
      '/deploy',
    );
    await expect(dialog.getByRole('region', { name: 'Skills', exact: true })).toContainText(
      'SKILL.md',
    );
    await everywhere.getByRole('button', { name: 'Remove deny rule Read(.env)' }).click();
    await expect(everywhere).not.toContainText('Read(.env)');
    const written = JSON.parse(readFileSync(join(home, 'configs', 'app.json'), 'utf8'));
    expect(written.permissions.deny).toEqual([]);
    expect(written.permissions.allow).toContain('Bash(npm test:*)');
  });
});

test('the composer lists the user\'s /commands as "/" is typed, and a picked one expands for the model', async ({
  app,
  script,
  home,
}) => {
  mkdirSync(join(home, 'commands'), { recursive: true });
  writeFileSync(
    join(home, 'commands', 'review.md'),
    '---\ndescription: Review a file\n---\nReview $ARGUMENTS closely.\n',
  );
  script.push((req) => ({
    text: req.transcript.includes('Review src/server.ts closely.') ? 'Reviewed.' : 'not expanded',
  }));
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.fill('/rev');
  const menu = app.getByRole('listbox', { name: 'Commands' });
  await expect(menu).toContainText('/review');
  await expect(menu).toContainText('Review a file');
  await menu.getByRole('option', { name: /review/ }).click();
  await expect(box).toHaveValue('/review ');
  await box.pressSequentially('src/server.ts');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('Reviewed.')).toBeVisible();
});
