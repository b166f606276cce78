import { describe, expect, it } from 'vitest';
import { applyDeferral } from '../../../electron/host/tool-search/deferral';
import { builtins, fakeTool, mcpTools } from './fixtures';

const names = (tools: { name: string }[]) => tools.map((t) => t.name);

describe('applyDeferral', () => {
  it('binds every tool and no tool_search when mode is off', () => {
    const tools = [...builtins, ...mcpTools('big', 40)];
    const r = applyDeferral({ tools, mode: 'off', threshold: 25, fetchedNames: [] });
    expect(r.engaged).toBe(false);
    expect(names(r.bound)).toEqual(names(tools));
    expect(names(r.bound)).not.toContain('tool_search');
  });

  it('does not engage, even in on mode, when nothing is deferrable (no MCP servers pay nothing)', () => {
    const r = applyDeferral({ tools: builtins, mode: 'on', threshold: 25, fetchedNames: [] });
    expect(r).toMatchObject({ engaged: false, reason: 'nothing_deferrable', deferredNames: [] });
    expect(names(r.bound)).toEqual(names(builtins));
  });

  it('auto keeps 25 deferrable tools bound and defers once there are 26', () => {
    const at = applyDeferral({
      tools: [...builtins, ...mcpTools('s', 25)],
      mode: 'auto',
      threshold: 25,
      fetchedNames: [],
    });
    expect(at.engaged).toBe(false);
    // Every schema is bound, and tool_search with them: it is bound from turn one whenever
    // something is deferrable.
    expect(at.bound).toHaveLength(28);
    expect(names(at.bound)).toContain('tool_search');
    const over = applyDeferral({
      tools: [...builtins, ...mcpTools('s', 26)],
      mode: 'auto',
      threshold: 25,
      fetchedNames: [],
    });
    expect(over).toMatchObject({ engaged: true, reason: 'count' });
    expect(names(over.bound)).toEqual(['read_file', 'aider_shell_tool', 'tool_search']);
    expect(over.deferredNames).toHaveLength(26);
  });

  it('auto defers a few tools whose schemas exceed the share of the context window', () => {
    const huge = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 200 }, (_, i) => [
          `field_${i}`,
          { type: 'string', description: 'x'.repeat(50) },
        ]),
      ),
    };
    const tools = [...builtins, fakeTool('mcp__a__big', 'Big', { deferrable: true, schema: huge })];
    const small = applyDeferral({
      tools,
      mode: 'auto',
      threshold: 25,
      contextWindow: 8_000,
      fetchedNames: [],
    });
    expect(small).toMatchObject({ engaged: true, reason: 'context_share' });
    const large = applyDeferral({
      tools,
      mode: 'auto',
      threshold: 25,
      contextWindow: 1_000_000,
      fetchedNames: [],
    });
    expect(large).toMatchObject({ engaged: false, reason: 'below_threshold' });
  });

  it('on mode defers a single deferrable tool and lists its name in tool_search', () => {
    const r = applyDeferral({
      tools: [...builtins, ...mcpTools('one', 1)],
      mode: 'on',
      threshold: 25,
      fetchedNames: [],
    });
    expect(r.deferredNames).toEqual(['mcp__one__tool_0']);
    const search = r.bound.find((t) => t.name === 'tool_search')!;
    expect(search.description).toContain('mcp__one__tool_0');
    expect(names(r.bound)).not.toContain('mcp__one__tool_0');
  });

  it('binds exactly the fetched schemas and keeps the rest deferred', () => {
    const tools = [...builtins, ...mcpTools('s', 30)];
    const r = applyDeferral({
      tools,
      mode: 'auto',
      threshold: 25,
      fetchedNames: ['mcp__s__tool_3', 'mcp__s__tool_7', 'mcp__gone__x'],
    });
    expect(names(r.bound)).toEqual([
      'read_file',
      'aider_shell_tool',
      'mcp__s__tool_3',
      'mcp__s__tool_7',
      'tool_search',
    ]);
    expect(r.deferredNames).toHaveLength(28);
    expect(r.deferredNames).not.toContain('mcp__s__tool_3');
  });

  it('replaces a granted tool named tool_search with its own, so it is bound even if allowed_tools dropped it', () => {
    const impostor = fakeTool('tool_search', 'not the real one');
    const r = applyDeferral({
      tools: [impostor, ...mcpTools('s', 30)],
      mode: 'auto',
      threshold: 25,
      fetchedNames: [],
    });
    const bound = r.bound.filter((t) => t.name === 'tool_search');
    expect(bound).toHaveLength(1);
    expect(bound[0]!.description).not.toBe('not the real one');
  });
});
