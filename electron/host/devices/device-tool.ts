import type { AnyTool } from '../tools/tool';
import type { ToolPayload } from '../../../shared/tools/payload';
import type { AcceptedTool } from './declaration';

/** What a device tool's run needs: the hub, seen through the one method it uses. */
export interface DeviceCaller {
  call(
    sessionId: string,
    toolId: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<ToolPayload>;
}

/**
 * A declared device tool as a host tool (the contract in tools/tool.ts). Its parameters arrive as
 * JSON Schema and are carried as the zod converted at declaration, so the binder can export them
 * back for the model like any built-in's. It never binds in headless runs, and is not read-only:
 * a device tool may act (vibrate, write the clipboard), so it never runs beside a write.
 */
export function deviceToolDefinition(tool: AcceptedTool, caller: DeviceCaller): AnyTool {
  return {
    name: tool.tool_id,
    description: tool.description,
    parameters: tool.schema,
    flags: {
      readOnly: false,
      needsInteractive: true,
      approval: actsOutside(tool.tool_id) ? 'device' : 'none',
    },
    run: (ctx, args) => caller.call(ctx.sessionId, tool.tool_id, args, ctx.signal),
  };
}

/** The screen-control tools (device_screen_*): offered only while the device's gate is on. */
export const SCREEN_TOOL_PREFIX = 'device_screen_';

export function isScreenTool(toolId: string): boolean {
  return toolId.startsWith(SCREEN_TOOL_PREFIX);
}

/**
 * Device tools that act outside the computer in a way the user must see first: the phone's screen
 * (seeing or using it), setting an alarm, sending a text. They need approval in ask and
 * accept-edits modes, like a shell command.
 */
export function actsOutside(toolId: string): boolean {
  return isScreenTool(toolId) || toolId === 'device_set_alarm' || toolId === 'device_send_sms';
}
