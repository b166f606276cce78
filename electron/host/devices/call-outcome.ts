import type { SessionEventBody } from '../../../shared/protocol/events';
import { errorPayload, type ImagePayload, type ToolPayload } from '../../../shared/tools/payload';
import { describeImage, imageRefusal, sniffImage } from '../../../shared/images/image-file';
import type { CallOutcome } from './pending-calls';

// How a settled device call is told: to the session log (device_tool_result, which the UI shows)
// and to the model (a device_result payload, or an error payload with the reason).

export function resultEvent(
  callId: string,
  deviceId: string,
  outcome: CallOutcome,
): SessionEventBody {
  const base = { type: 'device_tool_result' as const, call_id: callId, device_id: deviceId };
  if (outcome.status === 'ok') return { ...base, status: 'ok', result: outcome.result };
  if (outcome.status === 'error') return { ...base, status: 'error', error: outcome.error };
  return { ...base, status: 'error', error: { code: outcome.code, message: outcome.message } };
}

export function payloadOf(outcome: CallOutcome, deviceId: string, toolId: string): ToolPayload {
  if (outcome.status === 'ok') {
    const image = imageOf(outcome.result, deviceId, toolId);
    if (image) return image;
    return { kind: 'device_result', device_id: deviceId, tool_id: toolId, result: outcome.result };
  }
  if (outcome.status === 'error') {
    return errorPayload(
      'device_error',
      `${toolId} failed on the device: ${outcome.error.message}`,
      {
        device_id: deviceId,
        device_code: outcome.error.code,
      },
    );
  }
  return errorPayload(outcome.code, `${toolId}: ${outcome.message}`, { device_id: deviceId });
}

/**
 * A result carrying `image: {media_type, data}` (device_screen_capture, PROTOCOL.md) goes to the
 * model as an image, like an image file read_file opened. The bytes decide what it is, not the
 * phone's claim; one a model could not take is described in words instead. The result's other
 * fields stay in the payload's text.
 */
function imageOf(result: unknown, deviceId: string, toolId: string): ToolPayload | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const { image, ...rest } = result as { image?: unknown } & Record<string, unknown>;
  if (!image || typeof image !== 'object') return undefined;
  const data = (image as { data?: unknown }).data;
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return undefined;
  const bytes = Buffer.from(data, 'base64');
  const info = sniffImage(bytes);
  const shown = `${toolId} on ${deviceId}`;
  if (!info) {
    return errorPayload(
      'device_error',
      `${toolId} returned an image that is no PNG, JPEG, GIF or WebP`,
      {
        device_id: deviceId,
      },
    );
  }
  const base = {
    path: shown,
    media_type: info.mediaType,
    size_bytes: bytes.length,
    width: info.width,
    height: info.height,
    device_id: deviceId,
    tool_id: toolId,
    ...(Object.keys(rest).length ? { result: rest } : {}),
  };
  const what = describeImage(info, bytes.length);
  const why = imageRefusal(info, bytes.length);
  if (why)
    return {
      kind: 'binary',
      ...base,
      message: `${shown} returned an image (${what}) that is not shown: ${why}.`,
    };
  const payload: ImagePayload = {
    kind: 'image',
    ...base,
    message: `${shown} returned an image (${what}); it is shown to you with this result.`,
    image: { media_type: info.mediaType, data },
  };
  return payload;
}
