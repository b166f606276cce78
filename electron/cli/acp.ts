import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { AcpAgent } from '../host/acp/agent/acp-agent';
import { homePaths } from '../host/config/paths';
import { Host } from '../host/host';
import { headlessSignIn } from '../host/mcp/sign-in-policy';
import { rootLimitsOf } from '../host/sessions/session-root';
import { browserOpener } from '../host/system/browser-opener';
import { parseCliArgs, type CliCommand } from './command';

/** Largest JSON-RPC message accepted on stdin (bytes): an editor's prompt may embed big files. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const AGENT_VERSION = '0.1.0';

const usage = `Usage: mewbo acp

Runs the app's agent as an Agent Client Protocol agent on stdin/stdout, for Zed and other editors
(settings.json: "agent_servers": { "Mewbo": { "command": "mewbo", "args": ["acp"] } }).

Each session/new makes a session of the app on cwd (shown in the desktop app too); session/list
lists them, session/load replays one. Runs use the app's model (set up in the app or by
ANTHROPIC_API_KEY / OPENAI_API_KEY; without one, session/new answers auth_required), tools,
sandbox, rules and permission modes (ask, accept-edits, plan, auto; the mode and the model are
also config options); approvals are asked in the editor. A project's own rules, hooks, skills
and MCP servers apply only when the project is trusted in the app. Settings live under $MEWBO_HOME
(default ~/.mewbo). Diagnostics go to stderr; stdout carries only the protocol.`;

export const acpCommand: CliCommand = {
  name: 'acp',
  usage,
  async run(argv) {
    parseCliArgs({ args: argv, options: {} });
    const host = await Host.create({
      // Nobody sees Settings from an editor: a bad value stops here instead of acting on a default.
      configErrors: 'refuse',
      mcpSignIn: headlessSignIn(browserOpener(), (line) =>
        process.stderr.write(`mewbo acp: ${line}\n`),
      ),
    });
    const acp = new AcpAgent({
      sessions: host.sessions,
      agent: host.agent,
      config: host.config,
      commands: host.commands,
      models: host.models,
      rootLimits: rootLimitsOf(homePaths(), process.env),
      version: AGENT_VERSION,
    });
    const connection = acp.app.connect(
      ndJsonStream(
        Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
        Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
        { maxMessageBytes: MAX_MESSAGE_BYTES },
      ),
    );
    const signalled = new Promise<void>((done) => {
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    });
    process.stderr.write(`mewbo acp: ready\n`);
    await Promise.race([connection.closed, signalled]);
    // The editor went away (or we were told to stop): running turns stop, their waits logged.
    await acp.stopAll();
    connection.close();
    await host.dispose();
    return 0;
  },
};
