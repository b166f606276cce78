import { describe, expect, it } from 'vitest';
import { fetchedFromHistory } from '../../../electron/host/tool-search/history';
import type { SessionEvent } from '../../../shared/protocol/events';

let seq = 0;
const ev = (body: Record<string, unknown>) =>
  ({ seq: seq++, ts: 0, ...body }) as unknown as SessionEvent;
const result = (agent: string, tools: unknown, kind = 'tool_search', name = 'tool_search') =>
  ev({ type: 'tool_result', call_id: `c${seq}`, agent_id: agent, name, payload: { kind, tools } });

describe('fetchedFromHistory', () => {
  it('collects every schema the agent fetched, across compaction', () => {
    const events = [
      result('root', [{ name: 'mcp__a__x' }]),
      ev({ type: 'compaction', summary: 'older turns', upto_seq: 1 }),
      result('root', [{ name: 'mcp__a__y' }, { name: 'mcp__a__x' }]),
    ];
    expect([...fetchedFromHistory(events)].sort()).toEqual(['mcp__a__x', 'mcp__a__y']);
  });

  it("keeps each agent's discoveries apart and ignores other tools, errors and malformed payloads", () => {
    const events = [
      result('sub_1', [{ name: 'mcp__a__sub' }]),
      result('root', [{ name: 'mcp__a__other_tool' }], 'tool_search', 'read_file'),
      result('root', undefined, 'error'),
      result('root', [null, { name: 3 }, { name: 'mcp__a__ok' }]),
    ];
    expect([...fetchedFromHistory(events)]).toEqual(['mcp__a__ok']);
    expect([...fetchedFromHistory(events, 'sub_1')]).toEqual(['mcp__a__sub']);
  });
});
