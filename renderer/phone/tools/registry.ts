import type { LinkPrompts } from '../link-prompts';
import { sendSmsTool, setAlarmTool } from './alarm-sms';
import { batteryTool } from './battery';
import { readClipboardTool, writeClipboardTool } from './clipboard';
import { locationTool } from './location';
import { notifyTool } from './notify';
import type { PhoneTool } from './phone-tool';
import { timeTool } from './time';
import { wakeTool, type WakeAlarm } from './wake';

/** Every device tool this page can implement, before asking the browser what it permits. */
export function allPhoneTools(alarm: WakeAlarm, prompts: LinkPrompts): PhoneTool[] {
  return [
    timeTool,
    batteryTool,
    wakeTool(alarm),
    notifyTool,
    locationTool,
    readClipboardTool,
    writeClipboardTool,
    setAlarmTool(prompts),
    sendSmsTool(prompts),
  ];
}

/** The tools the browser permits right now: exactly what the page declares. */
export async function permittedTools(tools: PhoneTool[]): Promise<PhoneTool[]> {
  const checks = await Promise.all(tools.map((tool) => tool.available().catch(() => false)));
  return tools.filter((_, i) => checks[i]);
}
