import type * as acp from '@agentclientprotocol/sdk';
import type { AppConfig } from '../../config/schema';

// The user's own MCP servers (mcpServers in configs/app.json) as session/new and session/load pass
// them to an external agent (issue 30 part 1), in ACP's McpServer shape: a stdio server as its
// command, args and environment (ACP has no working directory for one: the agent starts it in
// the session's root, inside the agent's own sandbox); an HTTP one (http or streamable-http) as
// its URL and headers, sent only to an agent declaring mcpCapabilities.http (external-agent.ts).
// Left out: disabled servers, and HTTP servers given an `oauth` client, whose tokens the app keeps
// for its own sign-in and never hands to another program (nor could the agent sign in as it).
// A project's .mcp.json servers are not sent: the agent reads the project itself if it wants.

export function mcpServersOf(config: AppConfig): acp.McpServer[] {
  return Object.entries(config.mcpServers).flatMap(([name, s]): acp.McpServer[] => {
    if (s.disabled) return [];
    if ('url' in s)
      return s.oauth
        ? []
        : [
            {
              type: 'http',
              name,
              url: s.url,
              headers: Object.entries(s.headers).map(([n, value]) => ({ name: n, value })),
            },
          ];
    return [
      {
        name,
        command: s.command,
        args: s.args,
        env: Object.entries(s.env).map(([n, value]) => ({ name: n, value })),
      },
    ];
  });
}
