import { describe, expect, it } from 'vitest';
import { hoverText } from '../../../electron/host/lsp/hover-text';
import { displayPath, flattenLocations } from '../../../electron/host/lsp/locations';
import { MAX_HOVER_CHARS } from '../../../electron/host/lsp/constants';

const range = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 5 } });

describe('hover text and locations', () => {
  it('hover contents of every historical shape become one string, capped', () => {
    expect(hoverText({ contents: { kind: 'markdown', value: '  **x**: number ' } }).text).toBe(
      '**x**: number',
    );
    expect(hoverText({ contents: [{ language: 'python', value: 'def f()' }, 'Docs.'] }).text).toBe(
      '```python\ndef f()\n```\n\nDocs.',
    );
    expect(hoverText(null)).toEqual({ text: '', truncated: false });
    const long = hoverText({ contents: 'x'.repeat(MAX_HOVER_CHARS + 10) });
    expect([long.text.length, long.truncated]).toEqual([MAX_HOVER_CHARS + 1, true]);
  });

  it('definition results of one Location, a list, or LocationLinks flatten to uri and range', () => {
    expect(flattenLocations({ uri: 'file:///a', range: range(1) })).toEqual([
      { uri: 'file:///a', range: range(1) },
    ]);
    const link = { targetUri: 'file:///b', targetRange: range(0), targetSelectionRange: range(3) };
    expect(flattenLocations([link])).toEqual([{ uri: 'file:///b', range: range(3) }]);
    expect(flattenLocations(null)).toEqual([]);
  });

  it('paths inside the project are relative to it; others stay absolute', () => {
    expect(displayPath('/p/src/a.ts', '/p')).toBe('src/a.ts');
    expect(displayPath('/lib/typescript/lib.d.ts', '/p')).toBe('/lib/typescript/lib.d.ts');
    expect(displayPath('/p-other/a.ts', '/p')).toBe('/p-other/a.ts');
  });
});
