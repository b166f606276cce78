// Topics a client can subscribe to. Durable session events replay from a cursor (a seq); shell
// streams replay retained output from a character cursor and need acks.
export type Topic =
  | `session:${string}`
  | 'sessions'
  | `shell:${string}`
  | 'projects'
  | 'devices'
  | 'settings'
  | 'trust'
  | 'mcp'
  | 'remote';

export const TOPIC_PATTERN =
  /^(session:s_[a-z0-9]+|sessions|shell:[A-Za-z0-9_:-]+|projects|devices|settings|trust|mcp|remote)$/;
