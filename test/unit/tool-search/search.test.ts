import { describe, expect, it } from 'vitest';
import { searchTools } from '../../../electron/host/tool-search/search';
import { createToolSearchTool, clampMaxResults } from '../../../electron/host/tools/tool-search';
import type { ToolContext } from '../../../electron/host/tools/tool';
import { fakeTool, mcpTools } from './fixtures';

const catalog = [
  fakeTool('mcp__github__create_issue', 'Create a new issue in a GitHub repository', {
    deferrable: true,
  }),
  fakeTool('mcp__github__create_pull_request', 'Open a pull request from a branch', {
    deferrable: true,
  }),
  fakeTool('mcp__github__delete_branch', 'Delete a branch of a repository', { deferrable: true }),
  fakeTool('mcp__github__list_issues', 'List the issues of a repository, filtered by state', {
    deferrable: true,
  }),
  fakeTool('mcp__jira__create_issue', 'Create a Jira ticket in a project', { deferrable: true }),
  fakeTool('mcp__slack__send_message', 'Post a message to a Slack channel', { deferrable: true }),
  fakeTool('mcp__everything__get-sum', 'Returns the sum of two numbers', { deferrable: true }),
  ...mcpTools('noise', 40),
];
const names = (q: string, max = 5) => searchTools(catalog, q, max).tools.map((t) => t.name);

describe('tool_search queries', () => {
  it('finds a tool named exactly, first, by full or bare name', () => {
    expect(names('mcp__github__list_issues')[0]).toBe('mcp__github__list_issues');
    expect(names('get-sum')[0]).toBe('mcp__everything__get-sum');
    expect(names('MCP__SLACK__SEND_MESSAGE')[0]).toBe('mcp__slack__send_message');
  });

  it('finds an exactly named tool among many similarly named ones', () => {
    const many = mcpTools('svc', 300);
    expect(searchTools(many, 'mcp__svc__tool_217', 5).tools[0]!.name).toBe('mcp__svc__tool_217');
    expect(searchTools(many, 'tool_42', 1).tools.map((t) => t.name)).toEqual(['mcp__svc__tool_42']);
  });

  it('select: fetches by name in order and reports names it does not know', () => {
    const r = searchTools(catalog, 'select:mcp__slack__send_message, delete_branch ,nope', 5);
    expect(r.tools.map((t) => t.name)).toEqual([
      'mcp__slack__send_message',
      'mcp__github__delete_branch',
    ]);
    expect(r.notFound).toEqual(['nope']);
  });

  it('select: refuses an ambiguous bare name instead of guessing the server', () => {
    expect(searchTools(catalog, 'select:create_issue', 5)).toEqual({
      tools: [],
      notFound: ['create_issue'],
    });
  });

  it('keywords rank tools by their name words, and a + term is required', () => {
    expect(names('create issue').slice(0, 2).sort()).toEqual([
      'mcp__github__create_issue',
      'mcp__jira__create_issue',
    ]);
    expect(names('create issue +jira')).toEqual(['mcp__jira__create_issue']);
    expect(names('+nonexistentword create')).toEqual([]);
  });

  it('a description in other words finds the tool (synonyms, plurals, a typo)', () => {
    expect(names('remove a branch')[0]).toBe('mcp__github__delete_branch');
    expect(names('show issues of a repo')[0]).toBe('mcp__github__list_issues');
    expect(names('post to slack channel')[0]).toBe('mcp__slack__send_message');
    expect(names('pul request')[0]).toBe('mcp__github__create_pull_request');
  });

  it('clamps max_results to 1..25 with a default of 5', () => {
    expect(clampMaxResults(undefined)).toBe(5);
    expect(clampMaxResults(0)).toBe(1);
    expect(clampMaxResults(-3)).toBe(1);
    expect(clampMaxResults(100)).toBe(25);
    expect(clampMaxResults(7.9)).toBe(7);
    expect(names('noise', 100)).toHaveLength(40);
    expect(searchTools(catalog, 'noise', 25).tools).toHaveLength(25);
  });
});

describe('the tool_search tool', () => {
  const ctx = {} as ToolContext;

  it('returns full JSON schemas of the matches and never a tool outside its scope', async () => {
    const granted = catalog.slice(0, 3);
    const tool = createToolSearchTool({
      searchable: granted,
      deferredNames: granted.map((t) => t.name),
    });
    const out = (await tool.run(
      ctx,
      tool.parameters.parse({ query: 'select:mcp__github__create_issue,mcp__slack__send_message' }),
    )) as Record<string, unknown>;
    expect(out.kind).toBe('tool_search');
    expect(out.tools).toEqual([
      {
        name: 'mcp__github__create_issue',
        description: 'Create a new issue in a GitHub repository',
        input_schema: { type: 'object', properties: { q: { type: 'string' } } },
      },
    ]);
    expect(out.not_found).toEqual(['mcp__slack__send_message']);
    const kw = (await tool.run(
      ctx,
      tool.parameters.parse({ query: 'slack message', max_results: 25 }),
    )) as unknown as { tools: { name: string }[] };
    expect(kw.tools.map((t) => t.name)).not.toContain('mcp__slack__send_message');
  });

  it('rejects an empty query with a message naming what to send', () => {
    const tool = createToolSearchTool({ searchable: catalog, deferredNames: [] });
    const r = tool.parameters.safeParse({ query: '   ' });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('select:');
  });
});
