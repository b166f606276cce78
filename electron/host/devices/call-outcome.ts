import type { SessionEventBody } from '../../../shared/protocol/events';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
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
  if (outcome.status === 'ok')
    return { kind: 'device_result', device_id: deviceId, tool_id: toolId, result: outcome.result };
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
