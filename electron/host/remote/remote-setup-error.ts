// The remote cannot run the remote part: the message names what is missing and what to do.
export class RemoteSetupError extends Error {
  override name = 'RemoteSetupError';
  readonly code = 'remote_setup';
}
