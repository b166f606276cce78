import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect } from './fixtures';
import { FakeAnthropic } from '../helpers/fake-anthropic';
import type { ModelScript } from '../helpers/fake-model-script';
import { tempDir } from '../helpers/temp';

// A host whose model is a local server speaking the Anthropic Messages API with scripted replies,
// and two real project folders registered in configs/app.json ("app", the one sessions open in,
// and "docs"). Tests push the model's turns onto `script`, then drive the UI like a person.

/** The app project's files unless a test sets its own: a server with its port written in. */
export const APP_FILES: Record<string, string> = {
  'src/server.ts': 'const PORT = 3000;\nexport default PORT;\n',
};

/** An aider_edit_block_tool edit of APP_FILES that makes the port configurable. */
export const PORT_EDIT =
  'src/server.ts\n```\n<<<<<<< SEARCH\nconst PORT = 3000;\n=======\nconst PORT = Number(process.env.PORT ?? 3000);\n>>>>>>> REPLACE\n```\n';

/** An ask_user_question call drawn as the card "Question: Port", with options Yes and Use 8080. */
export const PORT_QUESTION = {
  name: 'ask_user_question',
  args: {
    questions: [
      {
        header: 'Port',
        question: 'Keep 3000 as the default?',
        options: [
          { label: 'Yes', description: '' },
          { label: 'Use 8080', description: '' },
        ],
        multi_select: false,
      },
    ],
  },
};

export interface Projects {
  app: string;
  docs: string;
}

export const test = base.extend<{
  fake: FakeAnthropic;
  script: ModelScript;
  projects: Projects;
  config: Record<string, unknown>;
  files: Record<string, string>;
  /** Make the app project a git repository with one commit (worktrees need one). */
  gitRepo: boolean;
}>({
  config: [{}, { option: true }],
  gitRepo: [false, { option: true }],
  files: [APP_FILES, { option: true }],
  // eslint-disable-next-line no-empty-pattern
  fake: async ({}, use) => {
    const fake = await FakeAnthropic.start();
    await use(fake);
    await fake.close();
  },
  script: async ({ fake }, use) => use(fake.script),
  projects: async ({ home, files, config, gitRepo }, use) => {
    const app = tempDir('mewbo-e2e-app-');
    const docs = tempDir('mewbo-e2e-docs-');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(app.dir, name, '..'), { recursive: true });
      writeFileSync(join(app.dir, name), text);
    }
    writeFileSync(join(docs.dir, 'README.md'), '# Docs\n');
    if (gitRepo) {
      const git = (...args: string[]) =>
        execFileSync(
          'git',
          ['-c', 'user.name=Mewbo Test', '-c', 'user.email=test@example.com', ...args],
          { cwd: app.dir, stdio: 'ignore' },
        );
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('commit', '-q', '-m', 'initial');
    }
    mkdirSync(join(home, 'configs'), { recursive: true });
    const projects = {
      app: { path: app.dir, description: 'The app' },
      docs: { path: docs.dir, description: 'The docs site' },
    };
    writeFileSync(
      join(home, 'configs', 'app.json'),
      JSON.stringify({ projects, ...config }, null, 2),
    );
    await use({ app: app.dir, docs: docs.dir });
    app.cleanup();
    docs.cleanup();
  },
  hostEnv: async ({ fake, projects }, use) => {
    void projects; // written before the host starts
    await use({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url });
  },
});

export { expect };

/** Opens the project `key` from the picker (Ctrl+P, type, Enter), as a person would. */
export async function openProject(app: Page, name: string): Promise<void> {
  // The shortcut is the app's own: wait until the app is up and connected before pressing it.
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await app.keyboard.press('Control+P');
  const picker = app.getByRole('dialog', { name: 'Open project' });
  await expect(picker).toBeVisible();
  await app.keyboard.type(name);
  await app.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await expect(
    app.getByRole('navigation', { name: 'Sessions' }).locator('.project-name'),
  ).toHaveText(name);
}

/** A new session in the current project with `text` sent; returns once the message is shown. */
export async function startSession(app: Page, text: string): Promise<void> {
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByLabel('You').filter({ hasText: text })).toBeVisible();
}
