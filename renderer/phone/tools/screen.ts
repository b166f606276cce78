// The screen-control tools (device_screen_*: capture, tap, type) exist in the protocol for native
// apps. A web page can do none of them: browsers offer no API that captures or drives the phone's
// screen (getDisplayMedia is desktop-only and shares the page's own tab at most). So the page
// never declares them, says so on screen, and refuses a call by name if one arrives anyway.

export const SCREEN_TOOL_PREFIX = 'device_screen_';

export const SCREEN_UNSUPPORTED_TEXT =
  "Screen control: this page cannot see or use your phone's screen, because browsers do not allow a web page to capture or control it. Only a native app can offer that.";

/** When the user turned Screen control on for this phone on the desktop: why nothing changes. */
export const SCREEN_GATE_ON_TEXT =
  "Screen control is on for this phone on the desktop, but this page cannot see or use your phone's screen: browsers do not allow a web page to capture or control it, so no screen tools are offered. Only a native app can offer them.";

/** The error for a device_screen_* call, or undefined for any other tool. */
export function screenRefusal(toolId: string): { code: string; message: string } | undefined {
  if (!toolId.startsWith(SCREEN_TOOL_PREFIX)) return undefined;
  return {
    code: 'screen_unsupported',
    message: `${toolId}: the Mewbo phone page runs in a browser, which cannot capture or control the phone's screen; screen tools need a native app.`,
  };
}
