// The link to the remote part broke (the SSH connection dropped, the remote part exited) while a
// call was waiting: the call may or may not have run there, and it is never sent again.
export class RemoteLinkError extends Error {
  override name = 'RemoteLinkError';
  readonly code = 'remote_disconnected';
}
