import type {
  EventId,
  EventStore,
  StreamId,
} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MCP_REPLAY_EVENTS } from './constants';

// One HTTP session's memory of what it sent, so a client whose SSE stream broke can reconnect with
// Last-Event-ID and get the rest (the SDK's resumability asks for an EventStore; its own example
// store is unbounded). Event ids are `streamId:sequence`, so an id alone names its stream.

interface Stored {
  id: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
}

export class McpReplayBuffer implements EventStore {
  private readonly events: Stored[] = [];
  private sequence = 0;

  constructor(private readonly capacity = MAX_MCP_REPLAY_EVENTS) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}:${++this.sequence}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.capacity) this.events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return '';
    const streamId = this.events[at]!.streamId;
    for (const e of this.events.slice(at + 1))
      if (e.streamId === streamId) await send(e.id, e.message);
    return streamId;
  }
}
