import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { tempDir } from '../../helpers/temp';

// `mewbo run` driven as a user would: the built CLI, a temp $MEWBO_HOME with the user's
// configs/app.json, a temp project, and a scripted Anthropic-compatible model.

const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));
/** A run that never ends must fail the test, not hang the suite. */
const RUN_TIMEOUT_MS = 45_000;

export type Line = { type: string; seq?: number; [field: string]: unknown };
export interface RunResult {
  code: number | null;
  events: Line[];
  stderr: string;
}

export class RunHarness {
  private constructor(
    readonly home: string,
    readonly project: string,
    readonly fake: FakeAnthropic,
    private readonly cleanups: (() => void)[],
  ) {}

  static async start(): Promise<RunHarness> {
    const home = tempDir('mewbo-rules-home-');
    const project = tempDir('mewbo-rules-proj-');
    const fake = await FakeAnthropic.start();
    return new RunHarness(home.dir, project.dir, fake, [home.cleanup, project.cleanup]);
  }

  async close(): Promise<void> {
    await this.fake.close();
    for (const c of this.cleanups) c();
  }

  /** Writes a file under $MEWBO_HOME (configs/app.json, skills/...) or, with `project`, the project. */
  write(rel: string, content: unknown, where: 'home' | 'project' = 'home'): string {
    const file = join(where === 'home' ? this.home : this.project, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  }

  userConfig(config: unknown): void {
    this.write('configs/app.json', config);
  }

  run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'run', '--project', this.project, ...args], {
        env: {
          PATH: process.env.PATH,
          HOME: this.home,
          MEWBO_HOME: this.home,
          ANTHROPIC_API_KEY: 'test-key',
          ANTHROPIC_BASE_URL: this.fake.url,
          OLLAMA_BASE_URL: 'http://127.0.0.1:9',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`mewbo run did not exit: ${err}`));
      }, RUN_TIMEOUT_MS);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({
          code,
          events: out
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Line),
          stderr: err,
        });
      });
    });
  }
}

export const shell = (command: string) => ({ name: 'aider_shell_tool', args: { command } });

export function resultsOf(r: RunResult): Record<string, unknown>[] {
  return r.events
    .filter((e) => e.type === 'tool_result')
    .map((e) => e.payload as Record<string, unknown>);
}
