import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { askUserQuestionTool } from '../../../electron/host/tools/ask-user-question';
import { parseToolArgs } from '../../../electron/host/tools/parse-args';
import { presentUiTool } from '../../../electron/host/tools/present-ui';
import type { AnyTool, ToolContext } from '../../../electron/host/tools/tool';
import type { ToolServices } from '../../../electron/host/tools/services';
import { updateTodosTool } from '../../../electron/host/tools/update-todos';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { ToolPayload } from '../../../shared/tools/payload';

// The three interactive tools called as the loop calls them: arguments through the tool's schema,
// then run with a context whose emit collects the events.

function harness(services: ToolServices = {}) {
  const emitted: SessionEventBody[] = [];
  const ctx: ToolContext = {
    root: '/tmp',
    sessionId: 's_test',
    agentId: 'root',
    callId: 'call_1',
    signal: new AbortController().signal,
    config: parseConfig({}),
    services,
    emit: async (e) => {
      emitted.push(e);
    },
  };
  const call = async (tool: AnyTool, raw: unknown): Promise<ToolPayload> => {
    const parsed = parseToolArgs(tool, raw);
    if (!parsed.ok) return parsed.error as ToolPayload;
    return tool.run(ctx, parsed.args);
  };
  return { emitted, call };
}

describe('update_todos', () => {
  const todos = (...statuses: string[]) => ({
    todos: statuses.map((status, i) => ({ label: `task ${i}`, status })),
  });

  it('publishes the whole list as one todos event and does not end the turn', async () => {
    const h = harness();
    const r = await h.call(
      updateTodosTool as AnyTool,
      todos('completed', 'in_progress', 'pending'),
    );
    expect(r).toMatchObject({ kind: 'todos', total: 3, completed: 1, in_progress: 'task 1' });
    expect(h.emitted).toEqual([
      {
        type: 'todos',
        items: todos('completed', 'in_progress', 'pending').todos,
        source: 'update_todos',
        agent_id: 'root',
      },
    ]);
  });

  it('refuses two items in progress, naming them, and publishes nothing', async () => {
    const h = harness();
    const r = await h.call(updateTodosTool as AnyTool, todos('in_progress', 'in_progress'));
    expect(r).toMatchObject({ kind: 'error', code: 'invalid_todos' });
    expect(String(r.message)).toContain('"task 0", "task 1"');
    expect(h.emitted).toHaveLength(0);
  });

  it('refuses a list with work left and nothing in progress; accepts all completed and the empty list', async () => {
    const h = harness();
    expect(await h.call(updateTodosTool as AnyTool, todos('completed', 'pending'))).toMatchObject({
      code: 'invalid_todos',
    });
    expect((await h.call(updateTodosTool as AnyTool, todos('completed', 'completed'))).kind).toBe(
      'todos',
    );
    expect((await h.call(updateTodosTool as AnyTool, { todos: [] })).kind).toBe('todos');
  });

  it('refuses labels over 200 characters and unknown statuses', async () => {
    const h = harness();
    expect(
      await h.call(updateTodosTool as AnyTool, {
        todos: [{ label: 'x'.repeat(201), status: 'in_progress' }],
      }),
    ).toMatchObject({ code: 'invalid_args' });
    expect(
      await h.call(updateTodosTool as AnyTool, { todos: [{ label: 'x', status: 'doing' }] }),
    ).toMatchObject({ code: 'invalid_args' });
  });
});

describe('ask_user_question', () => {
  const q = (options: { label: string; description?: string }[]) => ({
    questions: [{ header: 'Pick', question: 'Which?', options }],
  });

  it('refuses 1 or 5 options, more than 4 questions, and a timeout over 86,400 s', async () => {
    const h = harness();
    expect(await h.call(askUserQuestionTool as AnyTool, q([{ label: 'a' }]))).toMatchObject({
      code: 'invalid_args',
    });
    expect(
      await h.call(
        askUserQuestionTool as AnyTool,
        q(['a', 'b', 'c', 'd', 'e'].map((label) => ({ label }))),
      ),
    ).toMatchObject({ code: 'invalid_args' });
    expect(
      await h.call(askUserQuestionTool as AnyTool, {
        questions: Array.from({ length: 5 }, () => q([]).questions[0]),
      }),
    ).toMatchObject({ code: 'invalid_args' });
    expect(
      await h.call(askUserQuestionTool as AnyTool, { ...q([]), timeout_seconds: 86_401 }),
    ).toMatchObject({ code: 'invalid_args' });
  });

  it('without a client to ask, says so instead of hanging', async () => {
    const h = harness();
    expect(await h.call(askUserQuestionTool as AnyTool, q([]))).toMatchObject({
      kind: 'error',
      code: 'not_interactive',
    });
  });
});

describe('present_ui', () => {
  const panels = new Map<string, { root: unknown[]; summary: string }>();
  const services: ToolServices = { panels: { latest: (id) => panels.get(id) } };

  it('presents a panel with a gui- id, the complete tree and its plain text', async () => {
    const h = harness(services);
    const r = await h.call(presentUiTool as AnyTool, {
      summary: 'Build status',
      spec: {
        root: [
          { type: 'Heading', text: 'Build' },
          { type: 'Badge', label: 'green', tone: 'success' },
        ],
      },
    });
    expect(r).toMatchObject({ kind: 'panel', summary: 'Build status', nodes: 2, replaced: false });
    expect(String(r.ui_id)).toMatch(/^gui-[0-9a-f]{8}$/);
    expect(String(r.message)).toMatch(/Do not repeat/);
    const e = h.emitted[0]!;
    expect(e).toMatchObject({
      type: 'panel',
      ui_id: r.ui_id,
      call_id: 'call_1',
      summary: 'Build status',
      text: '## Build\n[green]',
    });
  });

  it('refuses an invalid tree with the validation error and publishes nothing', async () => {
    const h = harness(services);
    const r = await h.call(presentUiTool as AnyTool, {
      spec: { root: [{ type: 'Link', label: 'x', href: 'javascript:alert(1)' }] },
    });
    expect(r).toMatchObject({ kind: 'error', code: 'invalid_panel' });
    expect(String(r.message)).toContain('spec.root[0].href');
    expect(h.emitted).toHaveLength(0);
  });

  it('refuses a summary over 200 characters or on two lines', async () => {
    const h = harness(services);
    expect(
      await h.call(presentUiTool as AnyTool, {
        summary: 'x'.repeat(201),
        spec: { root: [{ type: 'Divider' }] },
      }),
    ).toMatchObject({ code: 'invalid_args' });
    expect(
      await h.call(presentUiTool as AnyTool, {
        summary: 'a\nb',
        spec: { root: [{ type: 'Divider' }] },
      }),
    ).toMatchObject({ code: 'invalid_panel' });
  });

  it('replaces a panel in place by ui_id, and appends into a container by id; each event carries the whole tree', async () => {
    const h = harness(services);
    const first = await h.call(presentUiTool as AnyTool, {
      summary: 'Progress',
      spec: {
        root: [
          { type: 'Card', id: 'steps', title: 'Steps', children: [{ type: 'Text', text: 'one' }] },
        ],
      },
    });
    const uiId = String(first.ui_id);
    const ev = h.emitted[0] as Extract<SessionEventBody, { type: 'panel' }>;
    panels.set(uiId, { root: (ev.spec as { root: unknown[] }).root, summary: ev.summary });
    const appended = await h.call(presentUiTool as AnyTool, {
      ui_id: uiId,
      spec: { target: 'steps', root: [{ type: 'Text', text: 'two' }] },
    });
    expect(appended).toMatchObject({ kind: 'panel', ui_id: uiId, replaced: true, nodes: 3 });
    const second = h.emitted[1] as Extract<SessionEventBody, { type: 'panel' }>;
    expect(second.ui_id).toBe(uiId);
    expect(second.summary).toBe('Progress');
    expect(second.text).toBe('[Steps]\n  one\n  two');
    const replaced = await h.call(presentUiTool as AnyTool, {
      ui_id: uiId,
      spec: { root: [{ type: 'Text', text: 'all done' }] },
    });
    expect(replaced).toMatchObject({ ui_id: uiId, nodes: 1 });
    expect((h.emitted[2] as { text: string }).text).toBe('all done');
  });

  it('refuses a ui_id never presented, and a target without a ui_id', async () => {
    const h = harness(services);
    expect(
      await h.call(presentUiTool as AnyTool, {
        ui_id: 'gui-00000000',
        spec: { root: [{ type: 'Divider' }] },
      }),
    ).toMatchObject({ code: 'not_found' });
    expect(
      await h.call(presentUiTool as AnyTool, {
        spec: { target: 'x', root: [{ type: 'Divider' }] },
      }),
    ).toMatchObject({ code: 'invalid_panel' });
    expect(
      await h.call(presentUiTool as AnyTool, {
        ui_id: 'panel-1',
        spec: { root: [{ type: 'Divider' }] },
      }),
    ).toMatchObject({ code: 'invalid_args' });
  });

  it('an append that would overrun a limit is refused', async () => {
    const h = harness(services);
    panels.set('gui-aaaaaaaa', {
      root: [
        {
          type: 'Card',
          id: 'c',
          children: Array.from({ length: 199 }, () => ({ type: 'Divider' })),
        },
      ],
      summary: 's',
    });
    const r = await h.call(presentUiTool as AnyTool, {
      ui_id: 'gui-aaaaaaaa',
      spec: { target: 'c', root: [{ type: 'Divider' }, { type: 'Divider' }] },
    });
    expect(r).toMatchObject({ code: 'invalid_panel' });
    expect(String(r.message)).toMatch(/200 nodes/);
  });
});
