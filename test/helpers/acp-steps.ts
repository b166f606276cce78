// Steps of the scripted ACP agent's turns (test/fixtures/acp-scripted-agent.ts) that several
// tests share.

/** The agent asks to push the branch (`git push`), offering its own three choices. */
export const PUSH_PERMISSION = {
  permission: {
    toolCall: {
      toolCallId: 'push-1',
      title: 'Push the branch',
      kind: 'execute',
      rawInput: { command: 'git push' },
    },
    options: [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow pushes', kind: 'allow_always' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  },
};

/** The agent says `text` (one message chunk). */
export const say = (text: string) => ({
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
});
