import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { AppConfig } from '../config/schema';
import { ConfigError, parseConfig } from '../config/load-config';
import { chooseEditBackend } from '../tools/edit-backend';
import type { ModelSettings } from '../models/model-settings';
import type { HandlerMap, TopicProvider } from '../rpc/router';
import { HostError } from '../rpc/host-error';
import { Emitter } from '../lifecycle/emitter';
import { toDisposable } from '../lifecycle/disposable';
import type { AppSettings } from '../../../shared/protocol/commands/settings';

type SettingsHandlers = Pick<HandlerMap, 'settings.get' | 'settings.update'>;

export interface SettingsDeps {
  configFile: string;
  /** The host's live config: updated in place, so runs started after a change see it. */
  config: AppConfig;
  models: ModelSettings;
}

/**
 * settings.get / settings.update and the `settings` topic. An update is merged into the file's own
 * JSON (keys it does not touch stay as written), validated as a whole, written atomically, then
 * applied to the live config; a change fires the topic so every open Settings screen reloads.
 */
export class AppSettingsService {
  private readonly changed = new Emitter<AppSettings>();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: SettingsDeps) {}

  async get(): Promise<AppSettings> {
    const c = this.deps.config;
    const selected = (await this.deps.models.status()).selected;
    return {
      permission_mode: c.permission_mode,
      edit_tool: c.agent.edit_tool,
      effective_edit_tool: chooseEditBackend(c.agent, selected?.model ?? null),
      shell_sandbox: c.agent.shell_sandbox,
      tool_search: c.agent.tool_search,
    };
  }

  update(
    patch: Partial<
      Pick<AppSettings, 'permission_mode' | 'edit_tool' | 'shell_sandbox' | 'tool_search'>
    >,
  ): Promise<AppSettings> {
    const next = this.writes.then(async () => {
      const file = this.deps.configFile;
      let raw: Record<string, unknown> = {};
      try {
        const json: unknown = JSON.parse(await readFile(file, 'utf8'));
        if (!json || typeof json !== 'object' || Array.isArray(json))
          throw new ConfigError(`${file}: must hold a JSON object`);
        raw = json as Record<string, unknown>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          throw new HostError('invalid_settings', (err as Error).message);
      }
      const agent = { ...((raw.agent as Record<string, unknown> | undefined) ?? {}) };
      for (const key of ['edit_tool', 'shell_sandbox', 'tool_search'] as const)
        if (patch[key] !== undefined) agent[key] = patch[key];
      const merged = {
        ...raw,
        agent,
        ...(patch.permission_mode ? { permission_mode: patch.permission_mode } : {}),
      };
      let parsed: AppConfig;
      try {
        parsed = parseConfig(merged, file);
      } catch (err) {
        throw new HostError('invalid_settings', (err as Error).message);
      }
      await mkdir(dirname(file), { recursive: true });
      await writeFileAtomic(file, `${JSON.stringify(merged, null, 2)}\n`);
      const live = this.deps.config;
      live.permission_mode = parsed.permission_mode;
      live.agent.edit_tool = parsed.agent.edit_tool;
      live.agent.shell_sandbox = parsed.agent.shell_sandbox;
      live.agent.tool_search = parsed.agent.tool_search;
      const now = await this.get();
      this.changed.fire(now);
      return now;
    });
    this.writes = next.catch(() => {});
    return next;
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
    this.changed.dispose();
  }
}
