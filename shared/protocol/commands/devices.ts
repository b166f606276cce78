import { z } from 'zod';
import { command } from '../command';
import { deviceInfoSchema, pairingOfferSchema, pairingStatusSchema } from '../../device/api';

export const deviceCommands = {
  'devices.status': command(
    () => z.object({}),
    () => pairingStatusSchema,
  ),
  'devices.enablePairing': command(
    () => z.object({}),
    () => pairingStatusSchema,
  ),
  'devices.disablePairing': command(
    () => z.object({}),
    () => pairingStatusSchema,
  ),
  /** A fresh one-time code (5 minutes) with its QR code; turns pairing on. */
  'devices.createOffer': command(
    () =>
      /** remote: the phone that pairs with this code gets remote rights. */
      z.object({ remote: z.boolean().default(false) }),
    () => pairingOfferSchema,
  ),
  'devices.list': command(
    () => z.object({}),
    () => z.object({ devices: z.array(deviceInfoSchema) }),
  ),
  'devices.revoke': command(
    () => z.object({ device_id: z.string().min(1) }),
    () => z.object({ revoked: z.boolean() }),
  ),
  /** Per device, off by default; turning remote off closes the phone's socket at once. */
  'devices.setRights': command(
    () =>
      z.object({
        device_id: z.string().min(1),
        remote: z.boolean().optional(),
        screen_control: z.boolean().optional(),
      }),
    () => z.object({ device: deviceInfoSchema }),
  ),
  /** A desktop window gained or lost focus (phones are notified only while none is focused). */
  'devices.reportFocus': command(
    () => z.object({ focused: z.boolean() }),
    () => z.object({ ok: z.literal(true) }),
  ),
  /** device_id null: the session follows the most recently attached device. */
  'devices.bindSession': command(
    () => z.object({ session_id: z.string().min(1), device_id: z.string().min(1).nullable() }),
    () => z.object({ bound: z.string().nullable(), serving: z.string().nullable() }),
  ),
};
