import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ModelScript } from '../helpers/fake-model-script';
import { test, expect, openProject, startSession } from './agent-fixtures';
import { shots } from './fixtures';

// #17.14: "/" in the message box lists the app's own commands first (new, clear, compact, model,
// mode, help), then the user's; keyboard as the @ menu (arrows, Enter runs, Tab completes, Esc
// closes). A built-in runs in the app, chosen from the list or sent whole, and never reaches the
// model.

const BUILTINS = ['/new', '/clear', '/compact', '/model', '/mode', '/help'];

function userCommands(home: string): void {
  mkdirSync(join(home, 'commands'), { recursive: true });
  writeFileSync(
    join(home, 'commands', 'review.md'),
    '---\ndescription: Review a file\n---\nReview it.\n',
  );
  // Named like a built-in: the built-in wins.
  writeFileSync(
    join(home, 'commands', 'compact.md'),
    '---\ndescription: My own compact\n---\nCompact.\n',
  );
}

async function newSession(app: Page) {
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.focus();
  return box;
}

test('"/" lists the built-ins first; the keyboard picks /mode, and "/mode plan" sets it without the model', async ({
  app,
  home,
  fake,
}) => {
  userCommands(home);
  const box = await newSession(app);
  await app.keyboard.type('/');
  const list = app.getByRole('listbox', { name: 'Commands' });
  const options = list.getByRole('option');
  await expect(options.first()).toContainText('/new');
  // The built-ins, each with its description, then the user's command; the user's /compact is hidden.
  await expect(options).toHaveCount(BUILTINS.length + 1);
  for (const [i, name] of BUILTINS.entries())
    await expect(options.nth(i).locator('.slash-name')).toHaveText(name);
  await expect(options.nth(6)).toContainText('/review');
  await expect(options.nth(1)).toContainText('context');
  await expect(list).not.toContainText('My own compact');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-controls', 'slash-list');
  await expect(box).toHaveAttribute('aria-activedescendant', 'slash-option-0');

  await shots(app, 'slash-menu');

  // Typing filters; Esc closes the list without stopping anything and leaves the text.
  await app.keyboard.type('m');
  await expect(options).toHaveText([/^\/model/, /^\/mode/]);
  await app.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(box).toHaveValue('/m');
  await app.keyboard.press('Backspace');
  await app.keyboard.press('Backspace');

  // Down to /mode, Enter: focus goes to the header's mode, where the arrows change it.
  await app.keyboard.type('/');
  for (let i = 0; i < 4; i++) await app.keyboard.press('ArrowDown');
  await expect(options.nth(4)).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', 'slash-option-4');
  await app.keyboard.press('Enter');
  const mode = app.getByRole('combobox', { name: 'Permission mode' });
  await expect(mode).toBeFocused();
  await expect(box).toHaveValue('');
  await app.keyboard.press('ArrowDown');
  await expect(mode).toHaveValue('accept-edits');

  // Tab completes the name for an argument; Enter runs it.
  await box.focus();
  await app.keyboard.type('/mo');
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Tab');
  await expect(box).toHaveValue('/mode ');
  await app.keyboard.type('plan');
  await app.keyboard.press('Enter');
  await expect(mode).toHaveValue('plan');
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();

  // A mode that is not one is said, not sent.
  await app.keyboard.type('/mode fast');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('alert')).toContainText('No mode “fast”');
  await expect(mode).toHaveValue('plan');
  expect(fake.script.requests).toHaveLength(0);
  await expect(app.getByLabel('You')).toHaveCount(0);
});

test('"/model <name>" sets the session\'s model, "/model" alone goes to the picker', async ({
  app,
  fake,
}) => {
  fake.models.push('claude-haiku-4-5');
  const box = await newSession(app);
  const picker = app.getByRole('combobox', { name: 'Model' });
  await expect(picker.getByRole('option', { name: 'claude-haiku-4-5' })).toHaveCount(1);
  await app.keyboard.type('/model claude-haiku-4-5');
  await app.keyboard.press('Enter');
  await expect(picker).toHaveValue('anthropic:claude-haiku-4-5');
  await expect(box).toHaveValue('');
  await app.keyboard.type('/model');
  await app.keyboard.press('Enter');
  await expect(picker).toBeFocused();
  expect(fake.script.requests).toHaveLength(0);
  await expect(app.getByLabel('You')).toHaveCount(0);
});

test('/new makes exactly one session; /help lists commands and keys, and Esc gives focus back', async ({
  app,
  home,
}) => {
  userCommands(home);
  const box = await newSession(app);
  const rows = app.getByRole('navigation', { name: 'Sessions' }).locator('button.session');
  await expect(rows).toHaveCount(1);
  await app.keyboard.type('/ne');
  await app.keyboard.press('Enter');
  await expect(rows).toHaveCount(2);
  await expect(box).toHaveValue('');
  // Sent whole, too: one more.
  await box.focus();
  await app.keyboard.type('/new');
  await expect(app.getByRole('listbox', { name: 'Commands' }).getByRole('option')).toHaveCount(1);
  await app.keyboard.press('Escape');
  await app.keyboard.press('Enter');
  await expect(rows).toHaveCount(3);
  await expect(app.getByLabel('You')).toHaveCount(0);

  await box.focus();
  await app.keyboard.type('/help');
  await app.keyboard.press('Enter');
  const help = app.getByRole('dialog', { name: 'Commands and shortcuts' });
  await expect(help).toBeVisible();
  for (const name of BUILTINS) await expect(help).toContainText(name);
  await expect(help).toContainText('/review');
  await expect(help).toContainText('Hidden: the built-in /compact runs.');
  await expect(help).toContainText('Ctrl+F');
  await expect(help).toContainText('Alt+A / Alt+D');
  await shots(app, 'slash-help');
  await app.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(box).toBeFocused();
});

/** A session with one exchange (the port question), for /compact to have something to do. */
async function askedForThePort(app: Page, script: ModelScript): Promise<Locator> {
  await openProject(app, 'app');
  script.push({ text: 'The port is 3000.' });
  await startSession(app, 'What port?');
  await expect(app.getByText('The port is 3000.')).toBeVisible();
  return app.getByRole('textbox', { name: 'Message' });
}

test('/compact summarizes the conversation through the model; /clear starts the context over', async ({
  app,
  script,
}) => {
  const box = await askedForThePort(app, script);
  const asked = script.requests.length;

  // The summary's stream is held open a while: the app says it is compacting meanwhile.
  const summary = 'Summary: the user asked for the port; it is 3000.';
  script.push({ text: summary, pace: { chars: 100, everyMs: 1, holdMs: 3000 } });
  await box.focus();
  await app.keyboard.type('/compact');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('status').filter({ hasText: 'Compacting' })).toBeVisible();
  const notices = app.getByText('Earlier conversation was summarized');
  await expect(notices).toHaveCount(1);
  await expect(app.getByRole('status').filter({ hasText: 'Compacting' })).toHaveCount(0);
  expect(script.requests.length).toBe(asked + 1);
  expect(script.requests.at(-1)!.system).toContain('You summarize the earlier part');
  expect(script.requests.at(-1)!.transcript).toContain('What port?');

  // Nothing said since: the host says so, and the app shows it.
  await app.keyboard.type('/compact');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('status').filter({ hasText: 'Nothing to compact' })).toBeVisible();

  // /clear needs no model call; its event appears in the conversation, which stays.
  script.push({ text: 'Noted.' });
  await box.fill('Remember 8080.');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Noted.')).toBeVisible();
  const before = script.requests.length;
  await app.keyboard.type('/clear');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Context cleared: the agent starts over from here')).toBeVisible();
  await expect(notices).toHaveCount(1);
  expect(script.requests.length).toBe(before);
  await expect(app.getByLabel('You').filter({ hasText: 'What port?' })).toBeVisible();
  await expect(app.getByLabel('You')).toHaveCount(2);
  // The model's next request starts after the clear: the earlier messages are not in it.
  script.push({ text: 'Fresh start.' });
  await app.keyboard.type('Hello again');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Fresh start.')).toBeVisible();
  const fresh = script.requests.at(-1)!.transcript;
  expect(fresh).toContain('Hello again');
  expect(fresh).not.toContain('Remember 8080.');
});

test('Esc stops a /compact that is still summarizing: the context is left as it was', async ({
  app,
  script,
}) => {
  const box = await askedForThePort(app, script);
  const asked = script.requests.length;

  // The summary never ends on its own.
  script.push({ text: 'Summary: half of it', hang: true });
  await box.focus();
  await app.keyboard.type('/compact');
  await app.keyboard.press('Enter');
  const compacting = app.getByRole('status').filter({ hasText: 'Compacting the conversation' });
  await expect(compacting.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect.poll(() => script.requests.length).toBe(asked + 1);
  await app.keyboard.press('Escape');
  await expect(app.getByRole('status').filter({ hasText: 'Compacting was stopped' })).toBeVisible();
  await expect(compacting).toHaveCount(0);
  await expect(app.getByText('Earlier conversation was summarized')).toHaveCount(0);
  await expect(box).toBeFocused();
});
