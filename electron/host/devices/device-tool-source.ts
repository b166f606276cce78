import type { ToolSource } from '../agent/run-context';
import type { DeviceHub } from './device-hub';

/**
 * Adds the tools of the phone serving a session to a run's candidates, asked afresh every step:
 * a phone's declaration can change at any time, and a detached phone's tools must vanish at once.
 * Headless runs get none (the hub says so).
 */
export function withDeviceTools(source: ToolSource, hub: DeviceHub): ToolSource {
  return {
    async candidates(input) {
      const tools = await source.candidates(input);
      const names = new Set(tools.map((t) => t.name));
      // A device tool never shadows a built-in or MCP tool (device_ names make a clash unlikely).
      const device = hub
        .toolsFor(input.session.id, { headless: input.headless })
        .filter((t) => !names.has(t.name));
      return [...tools, ...device];
    },
    defer: source.defer ? (granted, input) => source.defer!(granted, input) : undefined,
  };
}
