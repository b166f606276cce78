import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where everything the app stores lives: $MEWBO_HOME, default ~/.mewbo. */
export interface HomePaths {
  home: string;
  configDir: string;
  configFile: string;
  sessionsDir: string;
  secretsFile: string;
  stateDir: string;
  /** Shadow git stores of project files (rewind); never inside a project. */
  checkpointsDir: string;
  /** Caches the app rebuilds when missing (the CLI's V8 code caches); owner-only. */
  cacheDir: string;
  /** The app's copies of the policy files of projects on SSH hosts (remote-project-mirror.ts). */
  remoteProjectsDir: string;
}

export function homePaths(env: NodeJS.ProcessEnv = process.env): HomePaths {
  const home = env.MEWBO_HOME || join(homedir(), '.mewbo');
  const configDir = join(home, 'configs');
  return {
    home,
    configDir,
    configFile: join(configDir, 'app.json'),
    secretsFile: join(configDir, 'secrets.json'),
    sessionsDir: join(home, 'sessions'),
    stateDir: join(home, 'state'),
    checkpointsDir: join(home, 'checkpoints'),
    cacheDir: join(home, 'cache'),
    remoteProjectsDir: join(home, 'state', 'remote-projects'),
  };
}
