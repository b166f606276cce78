// Its own file, apart from external-agent.ts: the host and its agent service name this error
// without loading the ACP SDK, which an idle host never needs (its schemas were 2.75 MiB of heap;
// issue #26 part 4).

/** The agent failed in a way the user must read: the message says what and what to do. */
export class AgentFailure extends Error {
  override name = 'AgentFailure';
  readonly code = 'agent_failed';
}
