// The MCP SDK as the client side uses it, behind one dynamic import: the SDK (and the JSON Schema
// validator it brings) loads when the first MCP server connects, not when the host starts.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export {
  McpError,
  ErrorCode,
  ToolListChangedNotificationSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
  ElicitationCompleteNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { openTransport } from './transport';
export { McpServerAuth } from './oauth/server-auth';
