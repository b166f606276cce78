import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the agent with the host services', () => {
  it('runs a background shell after approval (showing the full command) and reads its output back', async () => {
    h = await Harness.start({ wire: 'openai', config: { agent: { shell_sandbox: false } } });
    h.script.push(
      {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: { command: 'echo started-$((40+2)); sleep 30', run_in_background: true },
          },
        ],
      },
      (req) => {
        const started = /"shell_id":"(shell_\d+)"/.exec(req.transcript);
        return {
          toolCalls: [
            {
              name: 'shell_session_tool',
              args: {
                operation: 'read',
                shell_id: started?.[1] ?? 'missing',
                wait_ms: 3000,
                filter: 'started',
              },
            },
          ],
        };
      },
      { text: 'The server printed started-42.' },
    );
    const id = await h.newSession();
    const from = await h.send(id, 'start it in the background');
    const waiting = await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the shell approval',
    );
    const request = ofType(waiting, 'approval_request')[0]!;
    expect(request.tool).toBe('aider_shell_tool');
    expect(request.detail).toContain('$ echo started-$((40+2)); sleep 30');
    expect(request.detail).toContain('in the background');
    await h.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'allow',
    });
    const events = await h.waitRunEnd(id, from);
    const [start, read] = ofType(events, 'tool_result');
    expect(start!.payload).toMatchObject({ kind: 'shell' });
    expect(start!.payload.shell_id).toMatch(/^shell_\d+$/);
    expect(read!.payload).toMatchObject({ kind: 'shell_session', status: 'running' });
    expect(String(read!.payload.output)).toContain('started-42');
    // shell_session_tool needs no approval: only the start did.
    expect(ofType(events, 'approval_request')).toHaveLength(1);
  });

  it('after an edit that breaks types, passive diagnostics reach the model without a tool call', async () => {
    h = await Harness.start({
      wire: 'openai',
      config: { permission_mode: 'auto' },
      files: {
        'tsconfig.json': '{"compilerOptions":{"strict":true}}\n',
        'src/a.ts': 'export const n: number = 1;\n',
      },
    });
    h.script.push(
      // A first lsp_tool call starts the language server, so the passive wait after the edit is warm.
      {
        toolCalls: [
          { name: 'lsp_tool', args: { operation: 'diagnostics', file_path: 'src/a.ts' } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'file_edit_tool',
            args: { file_path: 'src/a.ts', old_string: '= 1', new_string: '= "one"' },
          },
        ],
      },
      { text: 'Oops, a type error.' },
    );
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'change it'), 50_000);
    const diag = ofType(events, 'diagnostics');
    expect(diag).toHaveLength(1);
    expect(diag[0]!.file).toBe('src/a.ts');
    expect(diag[0]!.text).toMatch(/string.*number|number.*string/i);
    // The log says how many errors and warnings the note stands for: the card counts them.
    expect(diag[0]).toMatchObject({ errors: 1, warnings: 0 });
    expect(diag[0]!.call_id).toBe(ofType(events, 'tool_call')[1]!.call_id);
    expect(h.script.requests[2]!.transcript).toMatch(/Diagnostics after your edit of src\/a.ts/);
  }, 60_000);
});
