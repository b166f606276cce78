import { describe, expect, it } from 'vitest';
import { deviceToolsText } from '../../../renderer/src/components/dialogs/device-tools-text';

describe('the Pair phone dialog names what each paired phone permits', () => {
  it('lists the tool names, not a bare count', () => {
    expect(deviceToolsText([{ tool_id: 'device_camera' }])).toBe('tool: device_camera');
    expect(deviceToolsText([{ tool_id: 'device_camera' }, { tool_id: 'device_location' }])).toBe(
      'tools: device_camera, device_location',
    );
    expect(deviceToolsText([])).toBe('no tools');
  });
});
