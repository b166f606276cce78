import { z } from 'zod';

// What the desktop UI's "Pair phone" dialog and device list receive from the host (the results
// of DevicesService's handler-ready functions), for the protocol command map.

export const pairingOfferSchema = z.object({
  /** The phone page's address: https://<lan-ip>:<port>/ */
  url: z.string(),
  /** One-time code, six digits, valid until expires_at. */
  code: z.string(),
  /** SHA-256 of the listener's certificate, colon-separated upper-case hex. */
  fingerprint: z.string(),
  /** Milliseconds since the epoch. */
  expires_at: z.number(),
  /** What the QR code encodes: url + #code=...&fp=... (a fragment never reaches the network). */
  pairing_url: z.string(),
  qr_svg: z.string(),
  qr_png_data_url: z.string(),
});
export type PairingOffer = z.infer<typeof pairingOfferSchema>;

export const deviceToolSummarySchema = z.object({ tool_id: z.string(), description: z.string() });

export const deviceInfoSchema = z.object({
  device_id: z.string(),
  name: z.string(),
  paired_at: z.number(),
  /** Last frame or attach, ms since the epoch; null if it never connected after pairing. */
  last_seen: z.number().nullable(),
  attached: z.boolean(),
  /** Live declaration while attached, otherwise the last one it made. */
  tools: z.array(deviceToolSummarySchema),
  /** May use the remote frames (sessions, approvals, questions, a short message). Off by default. */
  remote: z.boolean(),
  /** Its device_screen_* tools are offered to the agent. Off by default. */
  screen_control: z.boolean(),
});
export type DeviceInfo = z.infer<typeof deviceInfoSchema>;

export const pairingStatusSchema = z.object({
  enabled: z.boolean(),
  listening: z.boolean(),
  url: z.string().nullable(),
  fingerprint: z.string().nullable(),
  /** Why the listener is not up although enabled (port taken, no certificate), if it is not. */
  error: z.string().nullable(),
});
export type PairingStatus = z.infer<typeof pairingStatusSchema>;
