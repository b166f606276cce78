import { z } from 'zod';
import { parseDomainPattern } from '../network/domain-pattern';
import { parseSshUrl } from '../remote/ssh-url';
import { PERMISSION_MODES } from './permission-modes';
import { weakMemo } from '../../../shared/weak-memo';

// The one schema of configs/app.json. Defaults live here and nowhere else; the README's config
// section is written from it.
//
// Its ~400 zod schemas are built when a config is read or checked and given back afterwards
// (configSchemas): a host reads its config at start and on an edit, and holding them between
// those cost every idle host their memory.

export { PERMISSION_MODES, type PermissionMode } from './permission-modes';
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

/**
 * Package caches a confined shell may write under the project write scope (npm, pip, cargo, go),
 * so installs and builds still work while the rest of the home is read-only. Only those that
 * exist are granted.
 */
export const DEFAULT_CACHE_DIRS = [
  '~/.npm',
  '~/.cache/pip',
  '~/.cargo/registry',
  '~/.cargo/git',
  '~/go/pkg/mod',
  '~/.cache/go-build',
];

function buildConfigSchemas() {
  const permissionModeSchema = z.enum(PERMISSION_MODES);

  const absPath = z.string().refine((p) => p.startsWith('/'), 'must be an absolute path');

  /** A network destination pattern (network/domain-pattern.ts): `example.com`, `*.example.com`, an IP. */
  const destination = z.string().superRefine((text, ctx) => {
    const parsed = parseDomainPattern(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
  });

  const projectConfigSchema = z.strictObject({
    path: absPath,
    allowed_paths: z.array(absPath).default([]),
    description: z.string().default(''),
    name: z.string().optional(),
    /** Workspace trust (trust/): only `true` trusts; a listed project without it is untrusted. */
    trusted: z.boolean().optional(),
    /** Destinations this project's confined processes reach through the egress proxy, unasked. */
    network_allow: z.array(destination).optional(),
  });

  /** A remote project's `ssh://` URL (issue #29), checked as the remote part will read it. */
  const sshUrl = z.string().superRefine((url, ctx) => {
    try {
      parseSshUrl(url);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });

  /** `remote_projects.NAME` (issue #29): a folder on an SSH host, never a local path. */
  const remoteProjectConfigSchema = z.strictObject({
    url: sshUrl,
    name: z.string().optional(),
    description: z.string().default(''),
  });

  const lspServerConfigSchema = z.strictObject({
    command: z.array(z.string()).min(1).optional(),
    extensions: z.array(z.string()).optional(),
    root_markers: z.array(z.string()).optional(),
    language_id: z.string().optional(),
    disabled: z.boolean().default(false),
  });

  /**
   * `mcpServers.NAME.oauth` (issue 27): the client settings of an HTTP server behind OAuth, when the
   * user has them. Without it the app registers itself (a Client ID Metadata Document when
   * `client_metadata_url` is set and the server takes one, else dynamic registration). With
   * `client_id` it is a pre-registered client; `grant: "client_credentials"` makes it a machine
   * client that never opens a browser. Tokens are never here: they live in the secret store.
   */
  const mcpOAuthConfigSchema = z
    .strictObject({
      client_id: z.string().min(1).optional(),
      client_secret: z.string().min(1).optional(),
      /** PKCS#8 PEM for private_key_jwt client authentication (RFC 7523). */
      private_key_pem: z.string().min(1).optional(),
      /** JWS algorithm for `private_key_pem`; default from the key (RS256, ES256/384/512, EdDSA). */
      signing_algorithm: z.string().min(1).optional(),
      /** Asked for when neither the server's challenge nor its metadata names scopes. */
      scopes: z.array(z.string().min(1)).optional(),
      grant: z.enum(['authorization_code', 'client_credentials']).default('authorization_code'),
      /** An HTTPS URL serving this client's metadata document (CIMD), used as its client_id. */
      client_metadata_url: z
        .url()
        .refine((u) => /^https:\/\/[^/]+\/./.test(u), 'must be an https URL with a path')
        .optional(),
    })
    .superRefine((o, ctx) => {
      const issue = (path: string, message: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message });
      if (o.client_secret && o.private_key_pem)
        issue('private_key_pem', 'give client_secret or private_key_pem, not both');
      if ((o.client_secret || o.private_key_pem) && !o.client_id)
        issue('client_id', 'a client secret or key needs the client_id it belongs to');
      if (o.grant === 'client_credentials' && !(o.client_secret || o.private_key_pem))
        issue('grant', 'client_credentials needs client_id with client_secret or private_key_pem');
      if (o.signing_algorithm && !o.private_key_pem)
        issue('signing_algorithm', 'signing_algorithm is for private_key_pem');
    });

  const mcpServerConfigSchema = z.union([
    z.strictObject({
      type: z.literal('stdio').optional(),
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
      cwd: z.string().optional(),
      disabled: z.boolean().default(false),
      /**
       * Under agent.server_sandbox: the destinations this server reaches through its egress proxy
       * (the same forms as sandbox.network.allow); none by default, and it is never asked. Read
       * from configs/app.json only: a project's `.mcp.json` server gets what its project may reach.
       */
      network: z.array(destination).optional(),
      /**
       * How long one tool call may go without an answer or a progress notification, in seconds
       * (default 600); each progress notification starts the clock again.
       */
      call_timeout_s: z.number().positive().optional(),
    }),
    z.strictObject({
      type: z.enum(['http', 'streamable-http']),
      url: z.url(),
      headers: z.record(z.string(), z.string()).default({}),
      oauth: mcpOAuthConfigSchema.optional(),
      disabled: z.boolean().default(false),
      /**
       * How long one tool call may go without an answer or a progress notification, in seconds
       * (default 600); each progress notification starts the clock again.
       */
      call_timeout_s: z.number().positive().optional(),
    }),
  ]);

  const providerConfigSchema = z.strictObject({
    api_key: z.string().optional(),
    base_url: z.url().optional(),
    model: z.string().optional(),
  });

  // --- The model layer's settings (providers, #16): extended thinking, reasoning effort, Ollama's
  // context size, and the price table the cost estimate reads. ---
  /** "off" or Anthropic's own `{type: "enabled", budget_tokens}` (budget at least 1024, its minimum). */
  const thinkingConfigSchema = z.union([
    z.literal('off'),
    z.strictObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
  ]);
  const openaiConfigSchema = providerConfigSchema.extend({
    /**
     * auto: the Responses API for GPT-5, o-series and Codex models at api.openai.com, Chat
     * Completions otherwise (what compatible servers such as LM Studio, vLLM, llama.cpp speak).
     */
    api: z.enum(['auto', 'chat', 'responses']).default('auto'),
    /**
     * Whether the Chat Completions model takes images (image files the agent reads, pasted images);
     * default: yes at api.openai.com, no elsewhere (a compatible server's model may be text only).
     */
    images: z.boolean().optional(),
  });
  const ollamaConfigSchema = providerConfigSchema.extend({
    /** Context tokens asked of Ollama (options.num_ctx); default: the model's own, from /api/show. */
    num_ctx: z.number().int().min(512).optional(),
  });
  /** USD per million tokens; cache prices default to the input price. */
  const modelPriceSchema = z.strictObject({
    input: z.number().min(0),
    output: z.number().min(0),
    cache_read: z.number().min(0).optional(),
    cache_write: z.number().min(0).optional(),
  });
  const modelConfigSchema = z.strictObject({
    provider: z.enum(['anthropic', 'openai', 'ollama']).optional(),
    name: z.string().optional(),
    /** Tokens the model accepts; default from the model's name. Compaction keeps the context under it. */
    context_window: z.number().int().min(1024).optional(),
    thinking: thinkingConfigSchema.default('off'),
    /** OpenAI reasoning models (Responses API); absent: the model's default. */
    reasoning_effort: z.enum(REASONING_EFFORTS).optional(),
  });
  /**
   * Prices by model name (the longest matching prefix wins), merged over the built-in table in
   * electron/host/models/prices.ts: an entry here replaces that model's built-in price.
   */
  const pricesConfigSchema = z.record(z.string().min(1), modelPriceSchema).default({});
  // --- end of the model layer's settings ---

  const agentConfigSchema = z.strictObject({
    /** "" follows the active model; otherwise pins one edit backend. */
    edit_tool: z.enum(['', 'search_replace_block', 'structured_patch']).default(''),
    shell_sandbox: z.boolean().default(true),
    /**
     * Where a confined shell may write: "project" (the project or session root, its allowed_paths,
     * the shell's own TMPDIR, /dev/shm and sandbox.cache_dirs; the home and its dotfiles are
     * read-only), or "unrestricted" (anywhere the user may, but the denied paths).
     */
    shell_write_scope: z.enum(['unrestricted', 'project']).default('project'),
    shell_denied_paths: z.array(absPath).default([]),
    harness_self_deny: z.boolean().default(true),
    server_sandbox: z.boolean().default(false),
    tool_search: z.enum(['auto', 'on', 'off']).default('auto'),
    /** auto mode defers once more than this many tools are deferrable. */
    tool_search_threshold: z.number().int().min(0).default(25),
    /**
     * auto mode also defers once the deferrable schemas would take more than this share of the
     * model's context window (estimated at 4 bytes per token), however few tools that is.
     */
    tool_search_context_share: z.number().gt(0).max(1).default(0.1),
    workspace_mode: z.enum(['auto', 'fixed']).default('auto'),
    /** Credential-looking variable names shells may still see (shells/shell-env.ts scrubs the rest). */
    shell_env_allow: z.array(z.string().min(1)).default([]),
    max_steps: z.number().int().min(1).default(100),
    lsp: z
      .strictObject({
        enabled: z.boolean().default(true),
        servers: z.record(z.string(), lspServerConfigSchema).default({}),
      })
      .prefault({}),
  });

  const homePath = z
    .string()
    .refine(
      (p) => p.startsWith('/') || p.startsWith('~/'),
      'must be an absolute path or start with ~/',
    );

  const shellsConfigSchema = z.strictObject({
    /** Characters of output kept per background shell (seed: 1,000,000). */
    buffer_chars: z.number().int().min(1024).default(1_000_000),
    /** Live shells at once, foreground included (seed: 32). */
    max_sessions: z.number().int().min(1).default(32),
    /** A running shell untouched this long is killed (seed: 3600 s). */
    idle_timeout_s: z.number().int().min(1).default(3600),
    /** SIGTERM to SIGKILL grace (seed: 3 s). */
    kill_grace_ms: z.number().int().min(0).default(3000),
  });

  /** Confinement of shells and confined servers beyond the agent.shell_* switches (issue #25). */
  const sandboxConfigSchema = z.strictObject({
    cache_dirs: z.array(homePath).default(DEFAULT_CACHE_DIRS),
    network: z
      .strictObject({
        /**
         * Confined processes reach the network only through their session's egress proxy (where the
         * kernel can hold it: Landlock ABI 4+). false leaves it open, as without the sandbox.
         */
        confine: z.boolean().default(true),
        /** The user's own destinations, for every project: reached through the proxy, unasked. */
        allow: z.array(destination).default([]),
        /**
         * Loopback ports confined processes may connect to besides those their own session listens
         * on (a database, a dev server started by hand); the app's own listeners stay out of reach.
         */
        local_ports: z.array(z.number().int().min(1).max(65535)).default([]),
      })
      .prefault({}),
  });

  /** A path relative to a repository's top folder, staying inside it (no `..`, not absolute). */
  const repoRelativePath = z
    .string()
    .min(1)
    .refine(
      (p) => !p.startsWith('/') && !p.split('/').includes('..'),
      'must be a path inside the repository (relative, without ..)',
    );

  /** Sessions in their own git worktree (issue 28). */
  const worktreesConfigSchema = z.strictObject({
    /**
     * Where session worktrees are made: "" puts them beside the repository, in `<repo>.worktrees/`
     * (same disk, outside its working tree, found by the user's own tools); an absolute path puts
     * them in `<dir>/<repo>/`. Never inside the repository or $MEWBO_HOME.
     */
    dir: z.union([z.literal(''), absPath]).default(''),
    /**
     * Files a new worktree gets copied from the main checkout (`.env.local` and the like: ignored
     * files a checkout does not carry). Paths relative to the repository's top; `*` matches within
     * one name. Links are not followed out of the repository.
     */
    copy: z.array(repoRelativePath).default([]),
    /** Project keys whose "New session" starts in a new worktree by default. */
    default_for: z.array(z.string().min(1)).default([]),
  });

  /**
   * `agents.NAME` (issue 30): an external coding agent the app hosts over the Agent Client Protocol
   * (electron/host/acp/). It starts confined like a project's MCP server, with only the variables
   * `env` sets and `pass_env` names (plus PATH, HOME and the locale) and a network through its own egress proxy that
   * lets through what `network` lists (its provider's API).
   */
  const externalAgentConfigSchema = z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    /** Variables it gets from the app's own environment, by name (an API key kept out of the file). */
    pass_env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
    network: z.array(destination).default([]),
    /** The `authenticate` method to use when the agent asks for one and offers several. */
    auth_method: z.string().min(1).optional(),
    disabled: z.boolean().default(false),
  });

  const appConfigSchema = z
    .strictObject({
      agent: agentConfigSchema.prefault({}),
      permission_mode: permissionModeSchema.default('ask'),
      model: modelConfigSchema.prefault({}),
      providers: z
        .strictObject({
          anthropic: providerConfigSchema.optional(),
          openai: openaiConfigSchema.optional(),
          ollama: ollamaConfigSchema.optional(),
        })
        .prefault({}),
      prices: pricesConfigSchema,
      projects: z.record(z.string().min(1), projectConfigSchema).default({}),
      /** Projects on SSH hosts, apart from `projects`, whose paths the sandbox and trust read as local. */
      remote_projects: z.record(z.string().min(1), remoteProjectConfigSchema).default({}),
      /** Directories the user trusted from the UI (trust/workspace-trust.ts); real, absolute paths. */
      /** Folders here, or on an SSH host as `ssh://` URLs (their files are read there). */
      trusted_projects: z.array(z.union([absPath, sshUrl])).default([]),
      mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), mcpServerConfigSchema).default({}),
      /** External ACP agents a session can be bound to (beside the presets found on PATH). */
      agents: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), externalAgentConfigSchema).default({}),
      shells: shellsConfigSchema.prefault({}),
      sandbox: sandboxConfigSchema.prefault({}),
      worktrees: worktreesConfigSchema.prefault({}),
      /**
       * Issue 20, Claude Code's shapes: `permissions: {allow, ask, deny}` rule lists and `hooks` by
       * event. Any value is accepted here: electron/host/rules checks them and warns (file and line)
       * about a bad entry while the rest loads, so one typo cannot stop the app.
       */
      permissions: z.unknown().optional(),
      hooks: z.unknown().optional(),
      /** Snapshots of the project's files before each turn that writes, for rewind (checkpoints/). */
      checkpoints: z
        .strictObject({
          enabled: z.boolean().default(true),
          /** Larger files are listed in a checkpoint, not stored (and a rewind leaves them alone). */
          max_file_bytes: z
            .number()
            .int()
            .min(0)
            .default(10 * 1024 * 1024),
        })
        .prefault({}),
      /** Projects on SSH hosts (issue #29): how the app reaches them and how long they wait for it. */
      remote: z
        .strictObject({
          /** `ssh -F FILE` for every connection; null: the user's own ~/.ssh/config. */
          ssh_config: absPath.nullable().default(null),
          /** How long a remote part whose connection dropped keeps its shells running (minutes). */
          keepalive_minutes: z
            .number()
            .int()
            .min(1)
            .max(24 * 60)
            .default(30),
        })
        .prefault({}),
      devices: z
        .strictObject({
          /** The LAN pairing listener is off until the user turns it on. */
          pairing_enabled: z.boolean().default(false),
          /** Address to bind; "" is the machine's first LAN IPv4 (tests bind 127.0.0.1). */
          host: z.string().default(''),
          /** 0: pick a free port once and keep it (the phone page's origin must not change). */
          port: z.number().int().min(0).max(65535).default(0),
        })
        .prefault({}),
    })
    .superRefine((config, ctx) => {
      // One key names one project: a remote project may not take a local configured project's name.
      for (const key of Object.keys(config.remote_projects))
        if (key in config.projects)
          ctx.addIssue({
            code: 'custom',
            path: ['remote_projects', key],
            message: `"${key}" already names a project in "projects"; give the remote one another name`,
          });
    });

  return {
    app: appConfigSchema,
    project: projectConfigSchema,
    remoteProject: remoteProjectConfigSchema,
    mcpOAuth: mcpOAuthConfigSchema,
    mcpServer: mcpServerConfigSchema,
    externalAgent: externalAgentConfigSchema,
  };
}

type ConfigSchemas = ReturnType<typeof buildConfigSchemas>;

/** The config's schemas: built on first ask, and again once no caller held them through a GC. */
export const configSchemas = weakMemo(buildConfigSchemas);

export type AppConfig = z.infer<ConfigSchemas['app']>;
export type ProjectConfig = z.infer<ConfigSchemas['project']>;
export type RemoteProjectConfig = z.infer<ConfigSchemas['remoteProject']>;
export type McpOAuthConfig = z.infer<ConfigSchemas['mcpOAuth']>;
export type McpServerConfig = z.infer<ConfigSchemas['mcpServer']>;
export type ExternalAgentConfig = z.infer<ConfigSchemas['externalAgent']>;
export type AgentConfig = AppConfig['agent'];
