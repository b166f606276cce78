import type { HandlerMap, TopicProvider } from '../rpc/router';
import type { DevicesService } from '../devices/devices-service';
import { DisposableStore } from '../lifecycle/disposable';

type DeviceHandlers = Pick<
  HandlerMap,
  | 'devices.status'
  | 'devices.enablePairing'
  | 'devices.disablePairing'
  | 'devices.createOffer'
  | 'devices.list'
  | 'devices.revoke'
  | 'devices.bindSession'
  | 'devices.setRights'
  | 'devices.reportFocus'
>;

export function deviceHandlers(devices: DevicesService): DeviceHandlers {
  return {
    'devices.status': async () => devices.status(),
    'devices.enablePairing': () => devices.enablePairing(),
    'devices.disablePairing': () => devices.disablePairing(),
    'devices.createOffer': (req) => devices.createOffer({ remote: req.remote }),
    'devices.list': async () => ({ devices: devices.listDevices() }),
    'devices.revoke': (req) => devices.revoke(req.device_id),
    'devices.bindSession': async (req) => devices.bindSessionDevice(req.session_id, req.device_id),
    'devices.setRights': (req) =>
      devices.setRights(req.device_id, {
        ...(req.remote !== undefined ? { remote: req.remote } : {}),
        ...(req.screen_control !== undefined ? { screen_control: req.screen_control } : {}),
      }),
    'devices.reportFocus': async (req, client) => {
      devices.reportFocus(client.clientId, req.focused);
      return { ok: true as const };
    },
  };
}

/** `devices`: `{type:"devices", devices}` as phones attach, declare, leave or are revoked; `{type:"status"}` as pairing turns on or off. */
export function devicesTopic(devices: DevicesService): TopicProvider {
  return async (_rest, _cursor, sink) => {
    const store = new DisposableStore();
    sink({ type: 'status', status: devices.status() });
    sink({ type: 'devices', devices: devices.listDevices() });
    store.add(devices.onDidChangeStatus((status) => sink({ type: 'status', status })));
    store.add(devices.onDidChangeDevices((list) => sink({ type: 'devices', devices: list })));
    return store;
  };
}
