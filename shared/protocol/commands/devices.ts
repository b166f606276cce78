import { z } from 'zod';
import { command } from '../command';
import { deviceInfoSchema, pairingOfferSchema, pairingStatusSchema } from '../../device/api';

export const deviceCommands = {
  'devices.status': command(z.object({}), pairingStatusSchema),
  'devices.enablePairing': command(z.object({}), pairingStatusSchema),
  'devices.disablePairing': command(z.object({}), pairingStatusSchema),
  /** A fresh one-time code (5 minutes) with its QR code; turns pairing on. */
  'devices.createOffer': command(z.object({}), pairingOfferSchema),
  'devices.list': command(z.object({}), z.object({ devices: z.array(deviceInfoSchema) })),
  'devices.revoke': command(
    z.object({ device_id: z.string().min(1) }),
    z.object({ revoked: z.boolean() }),
  ),
  /** device_id null: the session follows the most recently attached device. */
  'devices.bindSession': command(
    z.object({ session_id: z.string().min(1), device_id: z.string().min(1).nullable() }),
    z.object({ bound: z.string().nullable(), serving: z.string().nullable() }),
  ),
};
