import { permissionState, ToolFailure, type PhoneTool } from './phone-tool';

/** A position fix can take long indoors; stay well inside the host's 30 s call window. */
const FIX_TIMEOUT_MS = 20_000;

export const locationTool: PhoneTool = {
  tool_id: 'device_get_location',
  description: "Returns the phone's location (latitude, longitude, accuracy in metres).",
  parameters: {
    type: 'object',
    properties: {
      high_accuracy: {
        type: 'boolean',
        description: 'Use GPS (slower, more battery). Default false.',
      },
      max_age_s: {
        type: 'integer',
        minimum: 0,
        maximum: 3600,
        description: 'Accept a cached fix this old. Default 60.',
      },
    },
    additionalProperties: false,
  },
  available: async () =>
    'geolocation' in navigator && (await permissionState('geolocation')) === 'granted',
  run: (args) =>
    new Promise((resolve, reject) => {
      navigator.geolocation.getCurrentPosition(
        (pos) =>
          resolve({
            latitude: pos.coords.latitude,
            longitude: pos.coords.longitude,
            accuracy_m: pos.coords.accuracy,
            altitude_m: pos.coords.altitude,
            taken_at: new Date(pos.timestamp).toISOString(),
          }),
        (err) =>
          reject(
            new ToolFailure(
              err.code === err.PERMISSION_DENIED ? 'permission_denied' : 'location_failed',
              err.message,
            ),
          ),
        {
          enableHighAccuracy: args.high_accuracy === true,
          maximumAge: (typeof args.max_age_s === 'number' ? args.max_age_s : 60) * 1000,
          timeout: FIX_TIMEOUT_MS,
        },
      );
    }),
};

/** Asks for the permission (the browser's prompt); must run from a tap. */
export function requestLocation(): Promise<void> {
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      () => resolve(),
      () => resolve(),
      { timeout: FIX_TIMEOUT_MS },
    );
  });
}
