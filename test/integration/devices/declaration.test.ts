import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declared, detached, ECHO_TOOL, startHarness, TIME_TOOL, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('declarations over the socket', () => {
  it('declared tools are listed and bound with their JSON Schema as the model sees it', async () => {
    h = await startHarness();
    const { phone, deviceId } = await h.pairedPhone();
    phone.declare([TIME_TOOL, ECHO_TOOL]);
    await declared(h.service, deviceId, 2);
    expect(h.service.listDevices()[0]?.tools).toEqual([
      { tool_id: 'device_get_time', description: 'Returns the phone clock' },
      { tool_id: 'device_echo', description: 'Echoes its text' },
    ]);
    const echo = h.service.hub.toolsFor('s_anysession').find((t) => t.name === 'device_echo')!;
    expect(z.toJSONSchema(echo.parameters)).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
  });

  it('one bad entry rejects the whole declaration with a reason naming it, and the old list stays', async () => {
    h = await startHarness();
    const { phone, deviceId } = await h.pairedPhone();
    phone.declare([TIME_TOOL]);
    await declared(h.service, deviceId, 1);
    phone.declare([ECHO_TOOL, { ...TIME_TOOL, tool_id: 'device_Bad-Name' }]);
    const error = await phone.next('error');
    expect(error.code).toBe('bad_declaration');
    expect(error.message).toContain('tools[1].tool_id');
    expect(h.service.hub.toolsFor('s_anysession').map((t) => t.name)).toEqual(['device_get_time']);
  });

  it('a duplicate tool id rejects the declaration', async () => {
    h = await startHarness();
    const { phone } = await h.pairedPhone();
    phone.declare([TIME_TOOL, TIME_TOOL]);
    expect((await phone.next('error')).message).toMatch(
      /tools\[1\]\.tool_id: "device_get_time" is declared twice/,
    );
    expect(h.service.hub.toolsFor('s_anysession')).toEqual([]);
  });

  it('a later declaration replaces the list (a permission was withdrawn)', async () => {
    h = await startHarness();
    const { phone, deviceId } = await h.pairedPhone();
    phone.declare([TIME_TOOL, ECHO_TOOL]);
    await declared(h.service, deviceId, 2);
    phone.declare([ECHO_TOOL]);
    await declared(h.service, deviceId, 1);
    expect(h.service.hub.toolsFor('s_anysession').map((t) => t.name)).toEqual(['device_echo']);
    phone.declare([]);
    await declared(h.service, deviceId, 0);
    expect(h.service.hub.toolsFor('s_anysession')).toEqual([]);
  });

  it('a reconnected phone starts with no tools until it declares again, and is listed with its last ones', async () => {
    h = await startHarness();
    const { phone, deviceId, token } = await h.pairedPhone();
    phone.declare([TIME_TOOL]);
    await declared(h.service, deviceId, 1);
    await phone.close();
    await detached(h.service, deviceId);
    const offline = h.service.listDevices()[0];
    expect(offline?.attached).toBe(false);
    expect(offline?.tools.map((t) => t.tool_id)).toEqual(['device_get_time']);
    const again = await h.connect();
    await again.hello(deviceId, token);
    expect(h.service.hub.toolsFor('s_anysession')).toEqual([]);
  });
});
