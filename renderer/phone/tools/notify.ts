import { flag, setFlag } from '../storage';
import { ToolFailure, type PhoneTool } from './phone-tool';

// Some browsers (Chrome on Android) grant the permission but only show notifications from a
// service worker, which they refuse to register on a self-signed origin. So the grant is probed
// once with a real notification, and the tool is declared only where that worked.
const PROBED_OK = 'notify_ok';

const supported = () => typeof Notification === 'function';

export const notifyTool: PhoneTool = {
  tool_id: 'device_notify',
  description: 'Shows a notification on the phone with a title and an optional body.',
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 100 },
      body: { type: 'string', maxLength: 500 },
    },
    required: ['title'],
    additionalProperties: false,
  },
  available: async () => supported() && Notification.permission === 'granted' && flag(PROBED_OK),
  run: async (args) => {
    try {
      new Notification(String(args.title), {
        body: typeof args.body === 'string' ? args.body : '',
      });
    } catch (err) {
      throw new ToolFailure(
        'notification_failed',
        err instanceof Error ? err.message : String(err),
      );
    }
    return { shown: true };
  },
};

/** Asks for the permission and probes it; must run from a tap. */
export async function requestNotifications(): Promise<void> {
  if (!supported()) return;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return setFlag(PROBED_OK, false);
  try {
    const probe = new Notification('Mewbo can notify you', {
      body: 'The agent may now send you notifications.',
    });
    setTimeout(() => probe.close(), 4000);
    setFlag(PROBED_OK, true);
  } catch {
    setFlag(PROBED_OK, false);
  }
}

export function notificationsGranted(): boolean {
  return supported() && Notification.permission === 'granted' && flag(PROBED_OK);
}
