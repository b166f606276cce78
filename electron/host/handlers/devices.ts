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
>;

export function deviceHandlers(devices: DevicesService): DeviceHandlers {
  return {
    'devices.status': async () => devices.status(),
    'devices.enablePairing': () => devices.enablePairing(),
    'devices.disablePairing': () => devices.disablePairing(),
    'devices.createOffer': () => devices.createOffer(),
    'devices.list': async () => ({ devices: devices.listDevices() }),
    'devices.revoke': (req) => devices.revoke(req.device_id),
    'devices.bindSession': async (req) => devices.bindSessionDevice(req.session_id, req.device_id),
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
