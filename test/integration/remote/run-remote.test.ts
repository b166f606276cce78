import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines } from '../../helpers/mewbo-cli';
import { editBlockTurn, startRemoteRun, type RemoteRun } from '../../helpers/remote-run';

// `mewbo run --project ssh://...` against a real sshd and a scripted model: the session lives
// here (its log in this $MEWBO_HOME, the model called from here), its tools run on the host.

type Line = { type: string; name?: string; payload?: Record<string, unknown> };

let remote: RemoteRun;
beforeAll(async () => {
  remote = await startRemoteRun();
});
afterAll(() => remote?.stop());

describe('mewbo run on a project on an SSH host', () => {
  it('edits a file and runs a shell on the remote, and the model key never reaches it', async () => {
    const { sshd, fake } = remote;
    const project = join(sshd.remoteHome, 'work');
    mkdirSync(project);
    writeFileSync(join(project, 'a.txt'), 'one\n');
    fake.script.push(
      editBlockTurn('a.txt', 'one', 'two'),
      {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: {
              command:
                'cat a.txt; printf "%s|%s|" "$HOME" "${ANTHROPIC_API_KEY-unset}"; env | grep -c MEWBO_HOME=',
            },
          },
        ],
      },
      { text: 'Done.' },
    );
    const r = await remote.runOn(project, 'change one to two, then show it');
    const lines = jsonLines<Line>(r.stdout);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('two\n');
    const shell = lines.find((l) => l.type === 'tool_result' && l.name === 'aider_shell_tool');
    // Ran on the host (its HOME), confined, with no model key in its environment.
    expect(shell?.payload).toMatchObject({
      kind: 'shell',
      stdout: `two\n${sshd.remoteHome}|unset|0\n`,
      sandbox: { mode: 'landlock' },
    });
  });
});
