import { RemoteGitWatch } from './remote/remote-git-watch';
import { remoteWorktreeSites } from './remote/remote-worktree-site';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DisposableObject } from './lifecycle/disposable';
import { homePaths, type HomePaths } from './config/paths';
import { ConfigStore } from './config/config-store';
import type { AppConfig } from './config/schema';
import type { ConfigErrorPolicy } from './config/read-config';
import { SessionManager } from './sessions/session-manager';
import { ResponsesOnlyModels } from './models/responses-only';
import { adoptSessionFolders } from './sessions/session-folders';
import { AgentService } from './agent/agent-service';
import { ExternalTurns } from './acp/client/external-turns';
import { HostError } from './rpc/host-error';
import { findAgent } from './acp/client/agent-presets';
import { LauncherSandbox } from './lsp/sandboxed-launch';
import { agentHandlers } from './handlers/agent';
import { agentsHandlers } from './handlers/agents';
import { ModelSettings } from './models/model-settings';
import { FileSecretStore } from './secrets/file-secret-store';
import type { SecretStore } from './secrets/secret-store';
import { createRunToolSource } from './mcp/run-tool-source';
import { builtinTools } from './tools/builtin-tools';
import { Router, type HandlerMap, type TopicProvider } from './rpc/router';
import { sendToSession, sessionHandlers } from './handlers/sessions';
import { sessionTopic, sessionsTopic } from './handlers/session-topics';
import { ProjectRegistry } from './projects/project-registry';
import { ProjectSwitcher } from './projects/project-switcher';
import type { McpManager } from './mcp/mcp-manager';
import { createMcpManager } from './mcp/create-mcp-manager';
import { mcpTopic, projectHandlers, projectsTopic } from './handlers/projects';
import { DevicesService } from './devices/devices-service';
import { rememberPairingInConfig } from './devices/remember-pairing';
import { deviceHandlers, devicesTopic } from './handlers/devices';
import { withDeviceTools } from './devices/device-tool-source';
import { SessionsRemoteBackend } from './devices/remote-backend';
import { openRemoteSessions } from './remote/open-remote-sessions';
import { remoteSessionsOptions } from './remote/remote-sessions-options';
import type { RemoteSessions } from './remote/remote-sessions';
import { policyRootOf } from './remote/policy-root';
import type { Session } from './sessions/session';
import { remoteProjectFolder } from './remote/remote-project-mirror';
import { remoteHttpRefusal, remoteServerLaunch } from './remote/remote-server-launch';
import { isSshUrl } from './remote/ssh-url';
import { ShellService } from './shells/shell-service';
import { shellHandlers, shellTopic } from './handlers/shells';
import { remoteLinkTopic } from './handlers/remote';
import { AppSettingsService } from './handlers/settings';
import { lazyLspService } from './lsp/lazy-lsp';
import { DisposableStore, toDisposable } from './lifecycle/disposable';
import { WorkspaceTrust } from './trust/workspace-trust';
import { trustHandlers, trustTopic } from './handlers/trust';
import { TrustedContent } from './trust/trusted-content';
import { projectMcpPreview } from './mcp/project-config';
import { projectServerPreview } from './lsp/project-binaries';
import { RulesService } from './rules/rules-service';
import { NetworkService } from './network/network-service';
import { sessionPolicy } from './network/session-policy';
import { ServerNetworks } from './network/server-networks';
import { NetworkApprovals } from './agent/network-approval';
import { SkillService } from './skills/skill-service';
import { CommandService } from './commands/command-service';
import { rulesHandlers } from './handlers/rules';
import { userInstructionFiles } from './instructions/user-instructions';
import { projectHooksPreview } from './hooks/hook-config';
import { webHandlers, type LoginLinkSource } from './handlers/web';
import { checkpointSites } from './checkpoints/checkpoint-sites';
import { CheckpointStore } from './checkpoints/checkpoint-store';
import { SessionCheckpoints } from './checkpoints/session-checkpoints';
import { checkpointHandlers } from './handlers/checkpoints';
import { fileHandlers } from './handlers/files';
import { McpOfferings } from './mcp/mcp-offerings';
import { ProjectFileIndex } from './projects/file-index';
import { rootLimitsOf } from './sessions/session-root';
import { userStartedSignIn, type SignInPolicy } from './mcp/sign-in-policy';
import { browserOpener } from './system/browser-opener';
import { SessionWorktrees } from './worktrees/session-worktrees';
import { worktreeHandlers } from './handlers/worktrees';
import { errorPayload } from '../../shared/tools/payload';

export interface HostOptions {
  env?: NodeJS.ProcessEnv;
  /** Where API keys live; default a 0600 file under $MEWBO_HOME/configs (Electron passes safeStorage). */
  secrets?: SecretStore;
  /** The build output (dist/): the phone page is served from dist/phone. */
  distDir?: string;
  /** Project roots trusted for this process only (`mewbo run --trust`); never written. */
  trustRoots?: string[];
  /** `mewbo serve` hands its web server here once it listens (web.loginLink); Electron none. */
  loginLinks?: () => LoginLinkSource | undefined;
  /** What a bad value in configs/app.json does (ConfigErrorPolicy): `mewbo run` refuses. */
  configErrors?: ConfigErrorPolicy;
  /**
   * When an MCP server needs sign-in: default, when the user asks (Settings), opening pages with
   * $BROWSER or the system opener; `mewbo run` signs in by itself and reports on stderr.
   */
  mcpSignIn?: SignInPolicy;
}

/**
 * The composition root of the main process: it creates every service, wires them, and disposes
 * them all in one call (quit). Nothing else constructs long-lived services.
 */
export class Host extends DisposableObject {
  private constructor(
    readonly paths: HomePaths,
    readonly config: AppConfig,
    readonly sessions: SessionManager,
    readonly router: Router,
    readonly projects: ProjectRegistry,
    readonly mcp: McpManager,
    /** ToolServices.projects for list_projects and switch_project. */
    readonly projectTools: ProjectSwitcher,
    /** The agent runtime (the sessions' runner) and the live model settings. */
    readonly agent: AgentService,
    readonly models: ModelSettings,
    readonly devices: DevicesService,
    readonly shells: ShellService,
    /** Workspace trust: rules, hooks and skills of a project ask `trust.isTrusted(root)`. */
    readonly trust: WorkspaceTrust,
    /** The user's permission rules and hooks (issue 20). */
    readonly rules: RulesService,
    /** The user's skills (issue 20). */
    readonly skills: SkillService,
    readonly commands: CommandService,
    /** Sessions in their own git worktree (issue 28). */
    readonly worktrees: SessionWorktrees,
    /** The SSH hosts of remote projects' sessions, one connection each (issue #29). */
    readonly remoteHosts: RemoteSessions,
  ) {
    super();
  }

  /** Where the project files of `session` the app obeys are read: its root, or a remote project's copy. */
  policyRoot(session: Session): Promise<string | null> {
    return policyRootOf(this.remoteHosts, session.id, session.meta.root);
  }

  static async create(opts: HostOptions = {}): Promise<Host> {
    const env = opts.env ?? process.env;
    const paths = homePaths(env);
    await mkdir(paths.sessionsDir, { recursive: true });
    // Folders put under sessions/ by hand are listed like the rest.
    await adoptSessionFolders(paths.sessionsDir);
    // The one owner of configs/app.json (and the queue secrets.json shares); mistakes in the file
    // warn and fall back to defaults (shown in Settings), unless the caller refuses errors.
    const configStore = ConfigStore.open({ file: paths.configFile, errors: opts.configErrors });
    const config = configStore.config;
    // A live shell keeps its session open; `shells` exists once the services below are built.
    const late: { shells?: ShellService; remoteHosts?: RemoteSessions } = {};
    const sessions = new SessionManager(paths.sessionsDir, {
      busy: (id) => late.shells?.hasRunningShells(id) ?? false,
    });
    // What trusting a project covers: the content of its settings and `.mcp.json` as they were.
    const trustedContent = new TrustedContent(join(paths.stateDir, 'trusted-content.json'));
    await trustedContent.trustForRun((opts.trustRoots ?? []).filter((r) => !isSshUrl(r)));
    // A project on an SSH host is trusted by its URL; its policy files are copied here.
    const policyDir = paths.remoteProjectsDir;
    const trust = new WorkspaceTrust({
      config: configStore,
      onConfigChange: configStore.onDidChange,
      runTrusted: opts.trustRoots,
      content: trustedContent,
      remoteFolder: (url) => remoteProjectFolder(policyDir, url),
      refreshRemote: (url) => remoteHosts.policyRoot(url),
    });
    const projects = await ProjectRegistry.open({
      stateDir: paths.stateDir,
      home: paths.home,
      configured: config.projects,
      configuredRemote: config.remote_projects,
    });
    // API keys and MCP sign-ins: one store, the user's.
    const secrets =
      opts.secrets ?? new FileSecretStore(paths.secretsFile, (fn) => configStore.exclusive(fn));
    const mcpStore = new DisposableStore();
    // The one way the host opens things for the user: sign-in pages, a worktree's folder.
    const opener = browserOpener(env);
    // Confined MCP and language servers each reach the network through an egress proxy of their
    // own, with their own allowlist; disposed after both kinds of server.
    const serverNetworks = new ServerNetworks({ config: () => config });
    const mcp = createMcpManager({
      networks: serverNetworks,
      config,
      trust,
      homeDir: paths.home,
      store: mcpStore,
      secrets,
      signIn: opts.mcpSignIn ?? userStartedSignIn(opener),
      remoteLaunch: remoteServerLaunch({
        policyDir,
        trust,
        hostFor: (url) => remoteHosts.hostFor(url),
      }),
      projectHttpRefusal: remoteHttpRefusal(policyDir),
    });
    const projectTools = new ProjectSwitcher(projects, sessions);
    // Language servers register with their own store so they shut down after the runs that use them.
    // The LSP code (the protocol library: a third of the host's code) loads with the first call.
    const lspStore = new DisposableStore();
    const lsp = lazyLspService({
      config: () => config,
      homeDir: paths.home,
      store: lspStore,
      isTrusted: (root) => trust.isTrusted(root),
      networks: serverNetworks,
    });
    const rules = new RulesService({
      configFile: paths.configFile,
      trust,
      env,
      // A project's hooks start confined like the session's shells (made below: their network
      // policy reads these rules).
      confineHook: async (sessionId, root, argv, hookEnv) => {
        // A project on an SSH host runs its hooks there; nothing of this environment goes along.
        const url = await remoteHosts.remoteOf(sessionId);
        if (url)
          return {
            remote: (run) =>
              remoteHosts.runHook(url, {
                session_id: sessionId,
                root,
                command: run.command,
                input: run.input,
                timeout_ms: run.timeoutMs,
              }),
          };
        return late.shells
          ? late.shells.confine(sessionId, root, argv, hookEnv)
          : { refused: errorPayload('sandbox_unavailable', 'the shells are not started yet') };
      },
      updateUserConfig: (mutate) => configStore.update(mutate),
    });
    // Sessions in their own git worktree: known before any shell runs, since every shell is
    // denied the other sessions' worktrees.
    const worktrees = await SessionWorktrees.open({
      appHome: paths.home,
      config: () => config,
      sessions,
      scratchDir: join(paths.stateDir, 'worktree-scratch'),
      // A remote project's session worktrees are its host's (made below, before any session runs).
      remoteSite: remoteWorktreeSites(
        () => late.remoteHosts,
        () => config.worktrees.copy,
      ),
    });
    const shells = new ShellService({
      paths,
      config: () => config,
      env,
      // Each session's shells reach the network through its own egress proxy, judged by the
      // session's rules and mode.
      network: new NetworkService({
        config: () => config,
        configFile: paths.configFile,
        // The agent, made below, owns the approvals (called only once a shell connects).
        policy: sessionPolicy({ sessions, rules, config, canAsk: (s) => networkAsks.canAsk(s) }),
        ask: (sessionId, request, signal) => networkAsks.ask(sessionId, request, signal),
      }),
      registeredProjects: () => ({
        ...Object.fromEntries(
          projects.snapshot().flatMap((p) => (p.path ? [[p.key, p.path]] : [])),
        ),
        ...worktrees.asProjects(),
      }),
      worktree: (sessionId, root) => worktrees.grantFor(sessionId, root),
    });
    // A deleted session takes its shells with it: no process outlives the session that started it.
    late.shells = shells;
    sessions.onWillDelete((s) => void shells.disposeSession(s.id));
    // A session owns its shells' managers: closing it (nothing running) lets them go too.
    sessions.onDidOpen((s) => s.resources.add(toDisposable(() => shells.disposeSession(s.id))));
    shells.onDidExit(({ sessionId }) => sessions.settle(sessionId));
    const devices = await DevicesService.create({
      stateDir: paths.stateDir,
      config: config.devices,
      emit: async (sessionId, event) => {
        await (await sessions.get(sessionId)).append(event);
      },
      rememberPairing: (enabled) => rememberPairingInConfig(configStore, enabled),
      pageDir: opts.distDir ? join(opts.distDir, 'phone') : undefined,
    });
    const models = new ModelSettings({
      config: configStore,
      env,
      learned: new ResponsesOnlyModels(join(paths.stateDir, 'openai-responses-only.json')),
      secrets,
    });
    const skills = new SkillService({ userDir: join(paths.home, 'skills'), trust });
    // Connected MCP servers' prompts (`/server:prompt`) and resources (`@server:uri`).
    const offerings = new McpOfferings(mcp);
    const commands = new CommandService({
      userDir: join(paths.home, 'commands'),
      trust,
      skills,
      prompts: offerings,
    });
    // Sessions whose project is on an SSH host run their file and shell tools there (issue #29).
    const remoteHosts = openRemoteSessions(remoteSessionsOptions(sessions, () => config, paths));
    late.remoteHosts = remoteHosts;
    // `mewbo run --trust` on a remote project trusts its files as the host holds them now.
    await trustedContent.trustForRun(
      await Promise.all(
        (opts.trustRoots ?? []).filter(isSshUrl).map((url) => remoteHosts.policyRoot(url)),
      ),
    );
    const checkpoints: SessionCheckpoints = new SessionCheckpoints({
      siteOf: checkpointSites({
        store: new CheckpointStore({
          dir: paths.checkpointsDir,
          maxFileBytes: config.checkpoints.max_file_bytes,
        }),
        remote: remoteHosts,
        maxFileBytes: () => config.checkpoints.max_file_bytes,
      }),
      isRunning: (id): boolean => agent.isRunning(id),
      conversationRewound: (s): void => agent.forgetReads(s),
      enabled: () => config.checkpoints.enabled,
    });
    // External ACP agents (issue 30): each confined like a project's MCP server, its network
    // through an egress proxy of its own.
    const agentSandbox = LauncherSandbox.forApp({
      homeDir: paths.home,
      config: () => config,
      networks: serverNetworks,
    });
    const external = new ExternalTurns({
      config: () => config,
      env,
      sandbox: agentSandbox.wrap,
      shells,
      rules,
      scratchDir: join(paths.stateDir, 'scratch'),
    });
    const agent: AgentService = new AgentService({
      sessions,
      config,
      models,
      checkpoints,
      external,
      toolsForRun: () =>
        withDeviceTools(
          createRunToolSource({
            mcp,
            builtins: builtinTools,
            agentConfig: config.agent,
            // A remote project's `.mcp.json` is read from the copy of its files (its servers run there).
            projectRoot: (s) =>
              s.meta.remote ? remoteProjectFolder(policyDir, s.meta.remote) : s.meta.root,
          }),
          devices.hub,
        ),
      services: {
        projects: projectTools,
        devices: devices.hub,
        shells,
        lsp,
        rules,
        skills,
        commands,
        remote: remoteHosts,
        userInstructionFiles: userInstructionFiles(paths.home, env.HOME),
      },
      scratchDir: join(paths.stateDir, 'scratch'),
      rootLimits: rootLimitsOf(paths, env),
    });
    const networkAsks = new NetworkApprovals({
      sessions,
      state: (s) => agent.state(s),
      beginWait: (s, reason) => agent.beginWait(s, reason),
    });
    const runner = agent;
    // What a phone with remote rights reaches (PROTOCOL.md "Remote frames"): the same decisions
    // and send path as the desktop's, each recorded with the phone's name.
    const remote = new SessionsRemoteBackend({
      sessions,
      decisions: agent.decisions,
      send: (id, text, via) =>
        sendToSession({ sessions, runner }, id, text, {
          capabilities: ['generative_ui', 'ask_user', 'approvals'],
          via,
        }),
    });
    devices.hub.setRemoteBackend(remote);

    const resolveProject = async (key: string | null) =>
      key === null ? { key: null, root: null, remote: null } : projects.resolve(key);

    const appSettings = new AppSettingsService({ store: configStore, models });
    const handlers: HandlerMap = {
      ...sessionHandlers({
        sessions,
        runner,
        resolveProject,
        worktrees,
        resources: offerings,
        checkAgent: (name) => {
          const found = findAgent(config, env, name);
          if ('error' in found) throw new HostError('no_agent', found.error);
        },
      }),
      ...projectHandlers(projects, mcp),
      ...agentHandlers(agent.decisions, models),
      ...agentsHandlers({ config, env, sessions, external }),
      ...deviceHandlers(devices),
      ...shellHandlers(shells, sessions, remoteHosts),
      ...appSettings.handlers(),
      ...trustHandlers(trust, [
        projectMcpPreview,
        async (root) => projectServerPreview(root, config.agent.lsp),
        projectHooksPreview,
      ]),
      ...rulesHandlers({
        rules,
        skills,
        commands,
        projectRoots: () => projects.snapshot().flatMap((p) => (p.path ? [p.path] : [])),
        policyRoot: async (id) => policyRootOf(remoteHosts, id, (await sessions.get(id)).meta.root),
      }),
      ...webHandlers(opts.loginLinks ?? (() => undefined)),
      ...checkpointHandlers(sessions, checkpoints),
      ...fileHandlers(sessions, new ProjectFileIndex(), offerings),
      ...worktreeHandlers(worktrees, sessions, agent, opener),
    };
    const topics: Record<string, TopicProvider> = {
      session: sessionTopic(sessions),
      sessions: sessionsTopic(sessions),
      projects: projectsTopic(projects),
      devices: devicesTopic(devices),
      shell: shellTopic(shells, sessions, remoteHosts),
      remote: remoteLinkTopic(remoteHosts),
      settings: appSettings.topic(),
      trust: trustTopic(trust),
      mcp: mcpTopic(mcp),
    };
    const host = new Host(
      paths,
      config,
      sessions,
      new Router(handlers, topics),
      projects,
      mcp,
      projectTools,
      agent,
      models,
      devices,
      shells,
      trust,
      rules,
      skills,
      commands,
      worktrees,
      remoteHosts,
    );
    host.register(configStore);
    host.register(appSettings);
    // Before the servers' stores: disposed after them (in reverse), once no server uses a proxy.
    host.register(serverNetworks);
    host.register(lspStore);
    host.register(shells);
    host.register(remoteHosts);
    host.register(devices);
    host.register(remote);
    host.register(projects);
    // The picker shows each remote project's link as its host's connection goes (disposed before the registry).
    host.register(
      remoteHosts.onDidChangeHost(
        (c) => void projects.setHostState(c.host, c.state, c.hostKey).catch(() => {}),
      ),
    );
    // ... and its branch and files not committed, read by the host's git.
    host.register(new RemoteGitWatch({ sessions, remotes: remoteHosts, projects }));
    host.register(mcpStore);
    host.register(trust);
    host.register(projectTools);
    host.register(worktrees);
    host.register(sessions);
    host.register(agentSandbox);
    // Disposed after the runs and before the sessions' logs close: the agents' processes end.
    host.register(external);
    // Registered after sessions, so it is disposed first: runs end before their logs close.
    host.register(agent);
    // In the background: a slow server must not hold the window; failures show in Settings.
    void mcp.startAppServers();
    // The pairing listener comes up only if the user left pairing on; failures show in its status.
    void devices.start();
    return host;
  }
}
