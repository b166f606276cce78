import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../../electron/host/config/load-config';
import { homePaths } from '../../../electron/host/config/paths';
import type { AppConfig } from '../../../electron/host/config/schema';
import { ShellService } from '../../../electron/host/shells/shell-service';
import { tempDir } from '../../helpers/temp';

// A real ShellService over a temp MEWBO_HOME and a temp project, for the shell tests.

export interface ShellFixture {
  service: ShellService;
  root: string;
  home: string;
  dir: string;
  config: AppConfig;
  setConfig(raw: unknown): void;
  cleanup(): Promise<void>;
}

export function shellFixture(
  raw: Record<string, unknown> = {},
  opts: { launcher?: string | null } = {},
): ShellFixture {
  const t = tempDir('mewbo-shells-test-');
  const dir = realpathSync(t.dir);
  const home = join(dir, 'home');
  const root = join(dir, 'project');
  mkdirSync(join(home, 'configs'), { recursive: true });
  mkdirSync(root, { recursive: true });
  const fixture: ShellFixture = {
    service: undefined as unknown as ShellService,
    root,
    home,
    dir,
    config: parseConfig(raw),
    setConfig(next) {
      fixture.config = parseConfig(next);
    },
    async cleanup() {
      await fixture.service.dispose();
      t.cleanup();
    },
  };
  fixture.service = new ShellService({
    paths: homePaths({ MEWBO_HOME: home }),
    config: () => fixture.config,
    log: () => {},
    ...(opts.launcher !== undefined ? { launcher: opts.launcher } : {}),
  });
  return fixture;
}
