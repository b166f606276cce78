// A device tool as the phone page implements it. `available` decides whether it is declared at
// all: a tool the browser does not permit is never offered (the model is not told about a tool
// it would only fail to call).

export interface PhoneTool {
  tool_id: string;
  description: string;
  /** JSON Schema of the arguments, as the model will see it. */
  parameters: Record<string, unknown>;
  available(): Promise<boolean>;
  run(args: Record<string, unknown>): Promise<unknown>;
}

/** A failure the agent should read: its code and message travel back as the call's error. */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The Permissions API state for a name, or "unsupported" where the browser cannot say. */
export async function permissionState(name: string): Promise<PermissionState | 'unsupported'> {
  try {
    const status = await navigator.permissions.query({ name: name as PermissionName });
    return status.state;
  } catch {
    return 'unsupported';
  }
}

/** Calls back when a permission changes (granted in the browser's settings, or revoked). */
export async function watchPermission(name: string, onChange: () => void): Promise<void> {
  try {
    const status = await navigator.permissions.query({ name: name as PermissionName });
    status.addEventListener('change', onChange);
  } catch {
    // No Permissions API for this name: changes come through the page's own grant buttons.
  }
}
