import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test as base } from './agent-fixtures';
import { buildScriptedAgent } from '../helpers/acp-agent-build';
import { tempDir } from '../helpers/temp';

// The scripted ACP agent (test/fixtures/acp-scripted-agent.ts, written with the official SDK)
// configured as agents.scripted for an e2e test: `script` is its JSON script (turns, modes,
// settings...), `agentDir` the folder holding it and the record of what it received.

export const test = base.extend<{ agentDir: string; agentScript: Record<string, unknown> }>({
  agentScript: [{ turns: [] }, { option: true }],
  // eslint-disable-next-line no-empty-pattern
  agentDir: async ({}, use) => {
    const dir = tempDir('mewbo-e2e-acp-');
    await use(dir.dir);
    dir.cleanup();
  },
  config: async ({ agentDir, agentScript }, use) => {
    const agentJs = await buildScriptedAgent();
    const scriptFile = join(agentDir, 'script.json');
    writeFileSync(
      scriptFile,
      JSON.stringify({ record: join(agentDir, 'record.jsonl'), ...agentScript }),
    );
    await use({ agents: { scripted: { command: process.execPath, args: [agentJs, scriptFile] } } });
  },
});

export { expect, openProject } from './agent-fixtures';

/** A new session on the scripted agent, chosen in "New session". */
export async function newAgentSession(app: Page): Promise<void> {
  await app.getByRole('button', { name: 'New session: agent, worktree…' }).click();
  const dialog = app.getByRole('dialog', { name: 'New session' });
  await dialog.getByRole('radio', { name: /scripted/ }).check();
  await app.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
}

/** One thing the agent received (a method and its params) or one answer it got (a step's result). */
export interface Recorded {
  method?: string;
  params?: Record<string, unknown>;
  step?: string;
  result?: unknown;
}

/** What the agent received and the answers it got, in order (it appends them to a file). */
export function agentRecord(dir: string): Recorded[] {
  const file = join(dir, 'record.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}
