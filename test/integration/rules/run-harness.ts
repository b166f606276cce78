import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';

// `mewbo run` driven as a user would: the built CLI, a temp $MEWBO_HOME with the user's
// configs/app.json, a temp project, and a scripted Anthropic-compatible model.

/** A run that never ends must fail the test, not hang the suite (hooks may wait out timeouts). */
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

  async run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
    const r = await runMewbo(['run', '--project', this.project, ...args], {
      env: {
        HOME: this.home,
        MEWBO_HOME: this.home,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: this.fake.url,
        ...env,
      },
      timeoutMs: RUN_TIMEOUT_MS,
    });
    return { code: r.code, events: jsonLines<Line>(r.stdout), stderr: r.stderr };
  }
}

export const shell = (command: string) => ({ name: 'aider_shell_tool', args: { command } });

export function resultsOf(r: RunResult): Record<string, unknown>[] {
  return r.events
    .filter((e) => e.type === 'tool_result')
    .map((e) => e.payload as Record<string, unknown>);
}
