// The remote part answered with something a genuine remote part never sends (a policy file named
// outside the list, one over the size limit, an event no tool there emits): the host's bundle
// may have been replaced by someone with a shell there. Nothing of the answer is used; the
// message names what was refused and how to put a genuine remote part back.
export class RemoteAnswerError extends Error {
  override name = 'RemoteAnswerError';
  readonly code = 'remote_refused';

  constructor(host: string, what: string) {
    super(
      `the remote part on ${host} answered with ${what}; nothing of that answer was used. ` +
        `The remote part there may have been tampered with: remove ~/.mewbo-remote on ${host} ` +
        `and connect again (the app copies a fresh one)`,
    );
  }
}
