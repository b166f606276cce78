import { describe, expect, it } from 'vitest';
import {
  builtinToolLoaders,
  loadBuiltinTool,
} from '../../../electron/host/tools/builtin-tool-loaders';
import { builtinTools } from '../../../electron/host/tools/builtin-tools';

// `mewbo tool NAME` loads one tool through this index instead of the whole registry: the two must
// name the same tools and hand over the same tool objects, or `mewbo tool` would miss a tool the
// host and `mewbo mcp` offer (or run a different one).

describe('the built-in tools loaded one by one', () => {
  it('name exactly the registry’s tools', () => {
    expect(Object.keys(builtinToolLoaders).sort()).toEqual(builtinTools.map((t) => t.name).sort());
  });

  it('load each tool as the registry holds it', async () => {
    for (const tool of builtinTools) expect(await loadBuiltinTool(tool.name)).toBe(tool);
  });

  it('load nothing for a name that is no built-in tool', async () => {
    for (const name of ['no_such_tool', 'constructor', '__proto__', 'toString'])
      expect(await loadBuiltinTool(name)).toBeUndefined();
  });
});
