/**
 * What a paired phone lets the agent do, by name: "tools: device_camera, device_location", or
 * "no tools" (a count alone, "1 tools", said nothing about which).
 */
export function deviceToolsText(tools: readonly { tool_id: string }[]): string {
  if (!tools.length) return 'no tools';
  return `${tools.length === 1 ? 'tool' : 'tools'}: ${tools.map((t) => t.tool_id).join(', ')}`;
}
