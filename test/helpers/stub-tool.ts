import { z } from 'zod';
import { defineTool, type AnyTool, type ToolFlags } from '../../electron/host/tools/tool';

/**
 * A tool that takes no arguments and answers `{ kind: 'ok' }`, described by its name: for tests
 * of who is offered, asked about or allowed which tool, where only the name and flags matter.
 */
export function stubTool(name: string, flags: Partial<ToolFlags> = {}): AnyTool {
  return defineTool({
    name,
    description: name,
    parameters: z.object({}),
    flags: { readOnly: true, ...flags },
    run: async () => ({ kind: 'ok' }),
  }) as AnyTool;
}
