import type { PairingOffer } from '../../../shared/device/api';

/**
 * What the "Pair phone" dialog shows. The QR code encodes the page URL with the code and the
 * certificate fingerprint in the fragment: the phone's camera opens the page, the page reads the
 * code from the fragment, and the fragment never travels over the network.
 */
export async function buildOffer(input: {
  url: string;
  code: string;
  fingerprint: string;
  expires_at: number;
}): Promise<PairingOffer> {
  // Loaded when a phone is being paired, not at start-up.
  const { default: QRCode } = await import('qrcode');
  const pairingUrl = `${input.url}#code=${input.code}&fp=${input.fingerprint}`;
  // Medium error correction: survives a glare on a laptop screen, keeps the code small.
  const qr = { errorCorrectionLevel: 'M' as const, margin: 2 };
  const [qrSvg, qrPng] = await Promise.all([
    QRCode.toString(pairingUrl, { ...qr, type: 'svg' }),
    QRCode.toDataURL(pairingUrl, { ...qr, width: 320 }),
  ]);
  return { ...input, pairing_url: pairingUrl, qr_svg: qrSvg, qr_png_data_url: qrPng };
}
