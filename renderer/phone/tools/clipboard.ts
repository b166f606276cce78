import { permissionState, ToolFailure, type PhoneTool } from './phone-tool';

/** Clipboard text the agent may write: a page of text, not a file. */
const MAX_WRITE_CHARS = 100_000;

function notFocused(err: unknown): ToolFailure {
  const message = err instanceof Error ? err.message : String(err);
  // Browsers only touch the clipboard for the page in front.
  return new ToolFailure(
    'clipboard_failed',
    `${message} (open the Mewbo page on the phone and try again)`,
  );
}

export const readClipboardTool: PhoneTool = {
  tool_id: 'device_read_clipboard',
  description: "Returns the text on the phone's clipboard.",
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  available: async () =>
    typeof navigator.clipboard?.readText === 'function' &&
    (await permissionState('clipboard-read')) === 'granted',
  run: async () => {
    try {
      return { text: await navigator.clipboard.readText() };
    } catch (err) {
      throw notFocused(err);
    }
  },
};

export const writeClipboardTool: PhoneTool = {
  tool_id: 'device_write_clipboard',
  description: "Puts text on the phone's clipboard, replacing what is there.",
  parameters: {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: MAX_WRITE_CHARS, description: 'The text to copy.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  available: async () =>
    typeof navigator.clipboard?.writeText === 'function' &&
    (await permissionState('clipboard-write')) === 'granted',
  run: async (args) => {
    const text = String(args.text ?? '');
    try {
      await navigator.clipboard.writeText(text);
    } catch (err) {
      throw notFocused(err);
    }
    return { written_chars: text.length };
  },
};

/** Triggers the browser's clipboard prompt; must run from a tap. */
export async function requestClipboard(): Promise<void> {
  await navigator.clipboard?.readText().catch(() => undefined);
}
