import type { PhoneTool } from './phone-tool';

export const timeTool: PhoneTool = {
  tool_id: 'device_get_time',
  description: "Returns the phone's current date, time and time zone.",
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  available: async () => true,
  run: async () => {
    const now = new Date();
    return {
      iso: now.toISOString(),
      epoch_ms: now.getTime(),
      local: now.toLocaleString(),
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      utc_offset_minutes: -now.getTimezoneOffset(),
    };
  },
};
