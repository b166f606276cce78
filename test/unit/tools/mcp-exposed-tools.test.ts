import { describe, expect, it } from 'vitest';
import { exposedTools, refusalFor } from '../../../electron/host/mcp-server/exposed-tools';
import { stubTool as tool } from '../../helpers/stub-tool';

const reader = tool('reader', { readOnly: true });
const editor = tool('editor', { readOnly: false, approval: 'edit' });
const shell = tool('shell', { readOnly: false, approval: 'shell' });
const session = tool('session', { readOnly: false, approval: 'none' });
const asker = tool('asker', { readOnly: true, needsInteractive: true });
const panel = tool('panel', { readOnly: true, needsCapability: 'generative_ui' });
const todos = tool('todos', { readOnly: false, rootOnly: true });
const switcher = tool('switcher', { readOnly: false, autoWorkspaceOnly: true });
const all = [reader, editor, shell, session, asker, panel, todos, switcher];

describe('MCP exposure and permission modes', () => {
  it('serves only tools that need no interactive client, capability or app UI', () => {
    expect(exposedTools(all, 'auto').map((t) => t.name)).toEqual([
      'reader',
      'editor',
      'shell',
      'session',
    ]);
  });

  it('plan mode exposes read-only tools only', () => {
    expect(exposedTools(all, 'plan').map((t) => t.name)).toEqual(['reader']);
  });

  it('ask refuses every write, accept-edits refuses shell only, auto refuses nothing', () => {
    expect(refusalFor(reader, {}, 'ask')).toBeNull();
    expect(refusalFor(editor, {}, 'ask')).toMatch(/nobody to approve/);
    expect(refusalFor(shell, {}, 'ask')).toMatch(/nobody to approve/);
    expect(refusalFor(editor, {}, 'accept-edits')).toBeNull();
    expect(refusalFor(shell, {}, 'accept-edits')).toMatch(/--permission-mode auto/);
    expect(refusalFor(shell, {}, 'auto')).toBeNull();
    expect(refusalFor(session, {}, 'ask')).toBeNull();
    expect(refusalFor(session, {}, 'plan')).toMatch(/plan mode/);
  });
});
