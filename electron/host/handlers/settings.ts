import { ConfigError } from '../config/config-error';
import type { ConfigStore } from '../config/config-store';
import { isObject } from '../../../shared/is-object';
import { chooseEditBackend } from '../tools/edit-backend';
import type { ModelSettings } from '../models/model-settings';
import type { HandlerMap, TopicProvider } from '../rpc/router';
import { HostError } from '../rpc/host-error';
import { Emitter } from '../lifecycle/emitter';
import { toDisposable, type Disposable } from '../lifecycle/disposable';
import type { AppSettings } from '../../../shared/protocol/commands/settings';

type SettingsHandlers = Pick<HandlerMap, 'settings.get' | 'settings.update'>;

export interface SettingsDeps {
  /** The owner of configs/app.json; its live config is what runs started after a change see. */
  store: ConfigStore;
  models: ModelSettings;
}

/**
 * settings.get / settings.update and the `settings` topic. An update goes through the ConfigStore
 * (merged into the file's own JSON, validated, written atomically); any change to the file, in-app
 * or by hand, fires the topic so every open Settings screen reloads, problems included.
 */
export class AppSettingsService {
  private readonly changed = new Emitter<AppSettings>();
  private readonly storeSub: Disposable;

  constructor(private readonly deps: SettingsDeps) {
    this.storeSub = deps.store.onDidChange(() => {
      void this.get().then(
        (now) => this.changed.fire(now),
        () => {},
      );
    });
  }

  async get(): Promise<AppSettings> {
    const c = this.deps.store.config;
    const selected = (await this.deps.models.status()).selected;
    return {
      permission_mode: c.permission_mode,
      edit_tool: c.agent.edit_tool,
      effective_edit_tool: chooseEditBackend(c.agent, selected?.model ?? null),
      shell_sandbox: c.agent.shell_sandbox,
      shell_write_scope: c.agent.shell_write_scope,
      tool_search: c.agent.tool_search,
      config_problems: [...this.deps.store.problems],
      network: {
        confine: c.sandbox.network.confine,
        allow: [...c.sandbox.network.allow],
        local_ports: [...c.sandbox.network.local_ports],
      },
      worktrees_default_for: [...c.worktrees.default_for],
    };
  }

  async update(
    patch: Partial<
      Pick<
        AppSettings,
        | 'permission_mode'
        | 'edit_tool'
        | 'shell_sandbox'
        | 'shell_write_scope'
        | 'tool_search'
        | 'worktrees_default_for'
      >
    >,
  ): Promise<AppSettings> {
    try {
      await this.deps.store.update((raw) => {
        const agent = isObject(raw.agent) ? raw.agent : {};
        for (const key of [
          'edit_tool',
          'shell_sandbox',
          'shell_write_scope',
          'tool_search',
        ] as const)
          if (patch[key] !== undefined) agent[key] = patch[key];
        raw.agent = agent;
        if (patch.permission_mode) raw.permission_mode = patch.permission_mode;
        if (patch.worktrees_default_for) {
          const worktrees = isObject(raw.worktrees) ? raw.worktrees : {};
          worktrees.default_for = [...new Set(patch.worktrees_default_for)];
          raw.worktrees = worktrees;
        }
      });
    } catch (err) {
      if (err instanceof ConfigError) throw new HostError('invalid_settings', err.message);
      throw err;
    }
    // The store's change event has already told the topic; this answers the caller.
    return this.get();
  }

  handlers(): SettingsHandlers {
    return {
      'settings.get': () => this.get(),
      'settings.update': (req) => this.update(req),
    };
  }

  /** `settings`: the new settings after every change. */
  topic(): TopicProvider {
    return async (_rest, _cursor, sink) => {
      const sub = this.changed.event(sink);
      return toDisposable(() => sub.dispose());
    };
  }

  dispose(): void {
    this.storeSub.dispose();
    this.changed.dispose();
  }
}
