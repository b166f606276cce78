import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType, type Wire } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each<Wire>(['anthropic', 'openai'])(
  'a scripted model over the %s wire protocol',
  (wire) => {
    it('reads a file, edits it with the backend its model gets, updates todos, presents a panel, and finishes', async () => {
      h = await Harness.start({
        wire,
        files: { 'src/greet.ts': 'export const greeting = "hello";\n' },
        config: { permission_mode: 'auto' },
      });
      const edit =
        wire === 'anthropic'
          ? {
              name: 'aider_edit_block_tool',
              args: {
                content:
                  'src/greet.ts\n```\n<<<<<<< SEARCH\nexport const greeting = "hello";\n=======\nexport const greeting = "hello, world";\n>>>>>>> REPLACE\n```\n',
              },
            }
          : {
              name: 'file_edit_tool',
              args: {
                file_path: 'src/greet.ts',
                old_string: '"hello"',
                new_string: '"hello, world"',
              },
            };
      h.script.push(
        {
          text: 'Let me plan and read the file.',
          toolCalls: [
            {
              name: 'update_todos',
              args: {
                todos: [
                  { label: 'Read greet.ts', status: 'in_progress' },
                  { label: 'Change the greeting', status: 'pending' },
                ],
              },
            },
            { name: 'read_file', args: { path: 'src/greet.ts' } },
          ],
        },
        { toolCalls: [edit] },
        {
          toolCalls: [
            {
              name: 'update_todos',
              args: {
                todos: [
                  { label: 'Read greet.ts', status: 'completed' },
                  { label: 'Change the greeting', status: 'completed' },
                ],
              },
            },
            {
              name: 'present_ui',
              args: {
                summary: 'Greeting changed',
                spec: {
                  root: [
                    {
                      type: 'Card',
                      id: 'result',
                      title: 'Result',
                      children: [
                        { type: 'KeyValue', items: [{ label: 'File', value: 'src/greet.ts' }] },
                      ],
                    },
                  ],
                },
              },
            },
          ],
        },
        { text: 'Done: the greeting now says hello, world.' },
      );
      const id = await h.newSession();
      const from = await h.send(id, 'Change the greeting to "hello, world".');
      const events = await h.waitRunEnd(id, from);

      expect(readFileSync(join(h.project, 'src/greet.ts'), 'utf8')).toBe(
        'export const greeting = "hello, world";\n',
      );
      const results = ofType(events, 'tool_result');
      // The two read-only calls of the first step ran in parallel: either may finish first.
      expect(
        results
          .slice(0, 2)
          .map((r) => [r.name, r.payload.kind])
          .sort(),
      ).toEqual([
        ['read_file', 'file'],
        ['update_todos', 'todos'],
      ]);
      expect([results[2]!.name, results[2]!.payload.kind]).toEqual([edit.name, 'diff']);
      // The last step's two calls write nothing to the project: they too may finish in any order.
      expect(
        results
          .slice(3)
          .map((r) => [r.name, r.payload.kind])
          .sort(),
      ).toEqual([
        ['present_ui', 'panel'],
        ['update_todos', 'todos'],
      ]);
      const todos = ofType(events, 'todos');
      expect(todos.at(-1)!.items.every((i) => i.status === 'completed')).toBe(true);
      const panel = ofType(events, 'panel')[0]!;
      expect(panel.ui_id).toMatch(/^gui-[0-9a-f]{8}$/);
      expect(panel.text).toContain('File: src/greet.ts');
      expect(ofType(events, 'assistant_message').at(-1)!.text).toBe(
        'Done: the greeting now says hello, world.',
      );
      expect(ofType(events, 'usage')).toHaveLength(4);
      expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'idle', reason: 'finished' });
      // The model saw the file's content and the diff as tool results.
      expect(h.script.requests[1]!.transcript).toContain('export const greeting = \\"hello\\";');
      expect(h.script.requests[2]!.transcript).toContain(
        '+export const greeting = "hello, world";',
      );
      // The edit backend follows the model: Claude gets SEARCH/REPLACE blocks, GPT-5 structured patches.
      const offered = h.script.requests[0]!.tools;
      expect(offered).toContain(edit.name);
      expect(offered).not.toContain(
        wire === 'anthropic' ? 'file_edit_tool' : 'aider_edit_block_tool',
      );
      expect(h.script.requests[0]!.system).toContain(h.project);
    });
  },
);
