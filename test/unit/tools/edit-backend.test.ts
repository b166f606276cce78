import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../electron/host/config/config-error';
import { parseConfig } from '../../../electron/host/config/load-config';
import { chooseEditBackend, isUnchosenEditTool } from '../../../electron/host/tools/edit-backend';

describe('chooseEditBackend', () => {
  it('follows the model: GPT-5, o3, o4, Codex and GPT-4 get structured_patch, Claude and others search_replace_block', () => {
    const follow = { edit_tool: '' as const };
    for (const m of [
      'gpt-5',
      'gpt-5-mini',
      'o3',
      'o4-mini',
      'codex-mini-latest',
      'gpt-4.1',
      'gpt-4o',
      'openai/GPT-5',
      'GPT-4',
    ]) {
      expect(chooseEditBackend(follow, m), m).toBe('structured_patch');
    }
    for (const m of [
      'claude-sonnet-4-5',
      'claude-opus-4',
      'llama3.1',
      'qwen2.5-coder',
      'gpt-3.5-turbo',
      undefined,
      null,
      '',
    ]) {
      expect(chooseEditBackend(follow, m), String(m)).toBe('search_replace_block');
    }
  });

  it('agent.edit_tool pins the backend whatever the model', () => {
    expect(chooseEditBackend({ edit_tool: 'structured_patch' }, 'claude-sonnet-4-5')).toBe(
      'structured_patch',
    );
    expect(chooseEditBackend({ edit_tool: 'search_replace_block' }, 'gpt-5')).toBe(
      'search_replace_block',
    );
  });

  it('binding drops the backend not chosen and keeps every other tool', () => {
    expect(isUnchosenEditTool('file_edit_tool', 'search_replace_block')).toBe(true);
    expect(isUnchosenEditTool('aider_edit_block_tool', 'search_replace_block')).toBe(false);
    expect(isUnchosenEditTool('read_file', 'structured_patch')).toBe(false);
  });

  it('an invalid agent.edit_tool is a config error naming the key', () => {
    let err: unknown;
    try {
      parseConfig({ agent: { edit_tool: 'patch' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe('agent.edit_tool');
    expect((err as ConfigError).message).toMatch(/agent\.edit_tool/);
  });
});
