import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionEventBodySchema, type SessionEventBody } from '../../shared/protocol/events';

// Writes a session straight into a MEWBO_HOME the way the host stores it (meta.json + one JSON
// line per event), for the screens and benchmarks that need a long or varied history without
// driving a model through thousands of turns. Every event is checked against the real schema.

type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** The root agent's todo list as update_todos writes it: [label, status] pairs. */
export function todosBody(items: Array<[string, TodoStatus]>): SessionEventBody {
  return {
    type: 'todos',
    agent_id: 'root',
    source: 'update_todos',
    items: items.map(([label, status]) => ({ label, status })),
  };
}

/** The run waits on the user to approve a shell command (`summary`, `detail` as the card shows). */
export function shellApprovalWait(summary: string, detail: string): SessionEventBody[] {
  return [
    {
      type: 'approval_request',
      approval_id: 'ap_1',
      call_id: 'c_ap',
      tool: 'aider_shell_tool',
      summary,
      detail,
    },
    { type: 'run_state', state: 'waiting', reason: 'approval' },
  ];
}

/** The agent asks whether to update the README too (Yes carries `yes`, its description). */
export function readmeQuestion(yes = ''): SessionEventBody {
  return {
    type: 'question',
    question_id: 'q_1',
    call_id: 'c_q',
    questions: [
      {
        header: 'Docs',
        question: 'Should I also update the README?',
        options: [
          { label: 'Yes', description: yes },
          { label: 'No', description: '' },
        ],
        multi_select: false,
      },
    ],
  };
}

export interface SeededSession {
  id: string;
  count: number;
}

export function seedSession(
  home: string,
  title: string,
  bodies: SessionEventBody[],
  project: string | null = null,
): SeededSession {
  const id = `s_seed${Math.random().toString(36).slice(2, 10)}`;
  const dir = join(home, 'sessions', id);
  mkdirSync(dir, { recursive: true });
  const start = Date.now() - bodies.length * 1000;
  const lines = bodies.map((b, seq) =>
    JSON.stringify({ ...sessionEventBodySchema.parse(b), seq, ts: start + seq * 1000 }),
  );
  writeFileSync(join(dir, 'events.jsonl'), lines.join('\n') + '\n');
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({
      id,
      title,
      project,
      root: null,
      created_at: start,
      event_count: bodies.length,
    }),
  );
  return { id, count: bodies.length };
}

const DIFF = `--- a/src/server.ts
+++ b/src/server.ts
@@ -1,6 +1,7 @@
 import { createServer } from 'node:http';
+import { logger } from './logger';
 
-const PORT = 3000;
+const PORT = Number(process.env.PORT ?? 3000);
 
 createServer((req, res) => {
   res.end('ok');
`;

/** One turn of a realistic session: a question, a read, an edit, a shell run, an answer. */
function turn(i: number): SessionEventBody[] {
  const call = (n: string) => `c_${i}_${n}`;
  return [
    {
      type: 'user_message',
      text: `Step ${i}: make the port configurable and run the tests`,
      message_id: `m_u${i}`,
    },
    { type: 'run_state', state: 'running' },
    {
      type: 'tool_call',
      call_id: call('r'),
      agent_id: 'root',
      name: 'read_file',
      args: { path: 'src/server.ts' },
    },
    {
      type: 'tool_result',
      call_id: call('r'),
      agent_id: 'root',
      name: 'read_file',
      payload: {
        kind: 'file',
        path: 'src/server.ts',
        content:
          "     1\timport { createServer } from 'node:http';\n     2\t\n     3\tconst PORT = 3000;",
        start_line: 1,
        end_line: 3,
        total_lines: 3,
        truncated: false,
      },
    },
    {
      type: 'tool_call',
      call_id: call('e'),
      agent_id: 'root',
      name: 'file_edit_tool',
      args: {
        file_path: 'src/server.ts',
        old_string: 'const PORT = 3000;',
        new_string: 'const PORT = Number(process.env.PORT ?? 3000);',
      },
    },
    {
      type: 'tool_result',
      call_id: call('e'),
      agent_id: 'root',
      name: 'file_edit_tool',
      payload: {
        kind: 'diff',
        title: 'src/server.ts',
        text: DIFF,
        files: ['src/server.ts'],
        additions: 2,
        deletions: 1,
      },
    },
    {
      type: 'tool_call',
      call_id: call('s'),
      agent_id: 'root',
      name: 'aider_shell_tool',
      args: { command: 'npm test' },
    },
    {
      type: 'tool_result',
      call_id: call('s'),
      agent_id: 'root',
      name: 'aider_shell_tool',
      payload: {
        kind: 'shell',
        command: 'npm test',
        cwd: '/work/app',
        stdout:
          '> app@1.0.0 test\n> vitest run\n\n ✓ server.test.ts (4 tests) 12ms\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)\n',
        exit_code: 0,
        duration_ms: 1240,
        timed_out: false,
        sandbox: { mode: 'landlock', abi: 4, write_scope: 'unrestricted' },
      },
    },
    {
      type: 'assistant_message',
      message_id: `m_a${i}`,
      agent_id: 'root',
      text: `Done with step ${i}. The server now reads \`PORT\` from the environment:\n\n\`\`\`ts\nconst PORT = Number(process.env.PORT ?? 3000);\n\`\`\`\n\nAll **4 tests** pass.`,
    },
    { type: 'run_state', state: 'idle' },
  ];
}

/** A session of at least `n` events made of repeated realistic turns. */
export function longSessionBodies(n: number): SessionEventBody[] {
  const out: SessionEventBody[] = [
    { type: 'session_created', title: 'Long session', project: null, root: null },
  ];
  for (let i = 1; out.length < n; i++) out.push(...turn(i));
  return out.slice(0, n);
}
