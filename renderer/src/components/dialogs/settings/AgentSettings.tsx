import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';
import type { AppSettings } from '../../../../../shared/protocol/commands/settings';
import type { RemoteSandbox } from '../../../../../shared/protocol/commands/shells';
import { WithheldEnv } from './WithheldEnv';
import type {
  NetworkStatus,
  PolicyFilesStatus,
  SandboxStatus,
} from '../../../../../shared/tools/shell-payload';

type Patch = Partial<
  Pick<
    AppSettings,
    'permission_mode' | 'edit_tool' | 'shell_sandbox' | 'shell_write_scope' | 'tool_search'
  >
>;

const BACKEND_LABEL = {
  search_replace_block: 'SEARCH/REPLACE blocks',
  structured_patch: 'structured patch',
} as const;

type Line = { tone: 'ok' | 'warn'; text: string };

/** What a confined command reaches on the network, in one line. */
function networkLine(n: NetworkStatus | undefined): Line {
  if (n?.mode === 'proxy')
    return {
      tone: 'ok',
      text: 'Network: only through its session’s egress proxy (the destinations below, or those you approve), plus ports its session listens on and the listed local ports; no UDP, no raw sockets.',
    };
  return { tone: 'warn', text: `Network: open (${n?.reason ?? 'not confined'}).` };
}

/** Whether shells can rewrite what the app runs or obeys (hooks, settings, MCP servers, git hooks). */
function policyFilesLine(p: PolicyFilesStatus | undefined): Line {
  if (p?.mode === 'read_only')
    return {
      tone: 'ok',
      text: 'Project settings, hooks, .mcp.json and git hooks and config: read-only to shells.',
    };
  return {
    tone: 'warn',
    text: `Project settings, hooks, .mcp.json and git hooks and config: writable by shells (${p?.reason ?? 'not held'}).`,
  };
}

/** The user's own destinations and local ports (configs/app.json sandbox.network). */
function NetworkAllowlist({ network }: { network: AppSettings['network'] }) {
  if (!network.confine)
    return (
      <p className="muted small">
        sandbox.network.confine is false in configs/app.json: the network of shells is open.
      </p>
    );
  return (
    <div aria-label="Network allowlist">
      <p className="muted small">
        Allowed everywhere without asking (sandbox.network.allow):{' '}
        {network.allow.length ? (
          network.allow.map((d) => (
            <code key={d} className="network-destination">
              {d}
            </code>
          ))
        ) : (
          <span>none yet: approvals add Network(…) rules, listed under Permissions</span>
        )}
      </p>
      <p className="muted small">
        Local ports besides a session’s own (sandbox.network.local_ports):{' '}
        {network.local_ports.length ? network.local_ports.join(', ') : 'none'}
      </p>
    </div>
  );
}

/** What the sandbox really does on this machine: the ABI, or why shells are not confined. */
function sandboxLines(s: SandboxStatus): Line[] {
  switch (s.mode) {
    case 'landlock':
      return [
        {
          tone: 'ok',
          text: `Landlock is on (kernel ABI ${s.abi}); writes ${s.write_scope === 'project' ? 'stay inside the project' : 'are not narrowed'}.`,
        },
        networkLine(s.network),
        policyFilesLine(s.policy_files),
      ];
    case 'off':
      return [
        {
          tone: 'warn',
          text: `Off: ${s.reason}. Shell commands can read other projects and the app’s keys.`,
        },
      ];
    case 'unconfined':
      return [{ tone: 'warn', text: `Unconfined: ${s.reason}.` }];
    case 'unavailable':
      return [{ tone: 'warn', text: `Shells are refused: ${s.reason}.` }];
  }
}

/**
 * The sandbox of each SSH host connected since the app started (issue #29): its shells run under
 * its own kernel's Landlock, or unconfined where that kernel lacks it.
 */
function remoteSandboxLines(hosts: RemoteSandbox[]): Line[] {
  return hosts.map((h) =>
    h.landlock_abi > 0
      ? { tone: 'ok', text: `On ${h.host}: Landlock is on (kernel ABI ${h.landlock_abi}).` }
      : {
          tone: 'warn',
          text: `On ${h.host}: no Landlock (${h.landlock_reason ?? 'unknown'}); shell commands there run unconfined.`,
        },
  );
}

/** Default permission mode, edit backend, tool search, and the shell sandbox with its real state. */
export function AgentSettings() {
  const client = useClient();
  const q = useHostQuery('settings.get', {}, 'settings');
  const sandbox = useHostQuery('shells.sandbox', {}, 'settings');
  const remoteSandboxes = useHostQuery('shells.remoteSandboxes', {}, 'settings');

  if (q.error) return <p className="error-text">{q.error}</p>;
  if (!q.data) return <p className="muted">Loading…</p>;
  const s = q.data;
  const update = (patch: Patch) =>
    q.act(async () => {
      await client.invoke('settings.update', patch);
      sandbox.reload();
    });
  const lines = [
    ...(sandbox.data ? sandboxLines(sandbox.data) : []),
    ...remoteSandboxLines(remoteSandboxes.data?.hosts ?? []),
  ];
  return (
    <div className="form">
      {q.actionError && (
        <p className="error-text" role="alert">
          {q.actionError}
        </p>
      )}
      {s.config_problems.length > 0 && (
        <ul className="config-problems" aria-label="Problems in the config file">
          {s.config_problems.map((p) => (
            <li key={p.message} className={p.level === 'error' ? 'error-text' : 'muted'}>
              {p.level === 'error' ? 'Error' : 'Warning'}: {p.message}
            </li>
          ))}
        </ul>
      )}
      <label>
        Permission mode for new sessions
        <select
          value={s.permission_mode}
          onChange={(e) =>
            void update({ permission_mode: e.target.value as AppSettings['permission_mode'] })
          }
        >
          <option value="ask">Ask first: approve every edit and shell command</option>
          <option value="accept-edits">Accept edits: approve shell commands only</option>
          <option value="auto">Auto: no approvals</option>
          <option value="plan">Plan: the agent drafts a plan for approval first</option>
        </select>
      </label>
      <label>
        Edit backend
        <select
          value={s.edit_tool}
          onChange={(e) => void update({ edit_tool: e.target.value as AppSettings['edit_tool'] })}
        >
          <option value="">Follow the model (now {BACKEND_LABEL[s.effective_edit_tool]})</option>
          <option value="search_replace_block">
            SEARCH/REPLACE blocks (aider_edit_block_tool)
          </option>
          <option value="structured_patch">
            Structured patch: one exact string (file_edit_tool)
          </option>
        </select>
      </label>
      <label>
        Tool search (deferred MCP tools)
        <select
          value={s.tool_search}
          onChange={(e) =>
            void update({ tool_search: e.target.value as AppSettings['tool_search'] })
          }
        >
          <option value="auto">Auto: defer once many tools are deferrable</option>
          <option value="on">On: always defer</option>
          <option value="off">Off: bind every schema from the first turn</option>
        </select>
      </label>
      <fieldset>
        <legend>Shell sandbox</legend>
        <label className="radio">
          <input
            type="checkbox"
            checked={s.shell_sandbox}
            onChange={(e) => void update({ shell_sandbox: e.target.checked })}
          />
          Keep shell commands out of other projects and the app’s own config and keys
        </label>
        <label>
          Shell writes
          <select
            value={s.shell_write_scope}
            onChange={(e) =>
              void update({
                shell_write_scope: e.target.value as AppSettings['shell_write_scope'],
              })
            }
          >
            <option value="project">
              Project: the project, its temp directory and package caches
            </option>
            <option value="unrestricted">Unrestricted: anywhere you can write</option>
          </select>
        </label>
        {s.shell_write_scope === 'unrestricted' && (
          <p className="sandbox-state warn" role="alert">
            Shell commands can write your home: ~/.bashrc, ~/.profile, ~/.config/autostart and
            ~/.ssh. Code left there runs outside the sandbox, the next time you log in or open a
            terminal.
          </p>
        )}
        {lines.length > 0 && (
          <div role="status" aria-label="Sandbox status">
            {lines.map((l) => (
              <p key={l.text} className={`sandbox-state ${l.tone}`}>
                {l.text}
              </p>
            ))}
          </div>
        )}
        <NetworkAllowlist network={s.network} />
        <p className="muted small">
          Not covered: unix sockets, a second mount of a denied path, what a service outside the
          shell does for it.
        </p>
        <WithheldEnv />
      </fieldset>
    </div>
  );
}
