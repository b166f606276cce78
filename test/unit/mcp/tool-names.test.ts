import { describe, expect, it } from 'vitest';
import {
  namespacedToolName,
  safeServerName,
  uniqueToolNames,
} from '../../../electron/host/mcp/tool-names';
import { capText } from '../../../electron/host/mcp/tool-result';

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool> with characters providers reject replaced', () => {
    expect(namespacedToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(namespacedToolName('my server.v2', 'get.thing/now')).toBe(
      'mcp__my_server_v2__get_thing_now',
    );
  });

  it('keep the separator unambiguous: a server name never contains __', () => {
    expect(safeServerName('a__b')).toBe('a_b');
    expect(namespacedToolName('a__b', 'c')).toBe('mcp__a_b__c');
  });

  it('fit in 64 characters and two long names stay distinct', () => {
    const a = namespacedToolName('server', `${'x'.repeat(80)}_one`);
    const b = namespacedToolName('server', `${'x'.repeat(80)}_two`);
    expect(a.length).toBe(64);
    expect(b.length).toBe(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mcp__server__x+_[0-9a-f]{6}$/);
  });

  it('stay unique when sanitizing maps two tools to one name', () => {
    const names = uniqueToolNames('s', ['get.x', 'get_x', 'get/x']);
    expect(new Set(names.values()).size).toBe(3);
    expect(names.get('get.x')).toBe('mcp__s__get_x');
  });
});

describe('MCP result cap', () => {
  it('keeps short text whole', () => {
    expect(capText('abc', 10)).toEqual({ text: 'abc' });
  });

  it('keeps head and tail of long text and says how much was cut', () => {
    const text = `START${'m'.repeat(1000)}END`;
    const out = capText(text, 100);
    expect(out.text.startsWith('START')).toBe(true);
    expect(out.text.endsWith('END')).toBe(true);
    expect(out.text).toContain(`${text.length - 100} characters cut here`);
    expect(out.truncated).toEqual({ total_chars: text.length, shown_chars: 100 });
  });
});
