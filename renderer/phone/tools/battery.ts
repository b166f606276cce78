import type { PhoneTool } from './phone-tool';

// The Battery Status API exists in Chromium browsers only (not in the DOM typings either).
interface BatteryManager {
  level: number;
  charging: boolean;
  chargingTime: number;
  dischargingTime: number;
}
type WithBattery = Navigator & { getBattery?: () => Promise<BatteryManager> };

const seconds = (s: number) => (Number.isFinite(s) ? s : null);

export const batteryTool: PhoneTool = {
  tool_id: 'device_get_battery',
  description: "Returns the phone's battery level (percent) and whether it is charging.",
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  available: async () => typeof (navigator as WithBattery).getBattery === 'function',
  run: async () => {
    const battery = await (navigator as WithBattery).getBattery!();
    return {
      level_percent: Math.round(battery.level * 100),
      charging: battery.charging,
      charging_time_s: seconds(battery.chargingTime),
      discharging_time_s: seconds(battery.dischargingTime),
    };
  },
};
