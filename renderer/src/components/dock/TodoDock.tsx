import type { TodoItem } from '../../state/timeline-items';

const MARK: Record<TodoItem['status'], string> = { pending: '○', in_progress: '◐', completed: '●' };
const STATUS_TEXT: Record<TodoItem['status'], string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
};

/**
 * The run's task list, from the newest todos event: the whole list every time, so an item the
 * agent dropped is gone here too. One item is in progress; it is the one to read at a glance.
 */
export function TodoDock({ todos }: { todos: TodoItem[] }) {
  const done = todos.filter((t) => t.status === 'completed').length;
  return (
    <section className="todo-dock" role="region" aria-label="Todos">
      <header className="dock-head">
        <h2>Todos</h2>
        <span className="muted small">
          {done}/{todos.length} done
        </span>
        <progress value={done} max={Math.max(1, todos.length)} aria-hidden="true" />
      </header>
      {todos.length === 0 ? (
        <p className="muted small">No open tasks.</p>
      ) : (
        <ol className="todos">
          {todos.map((t, i) => (
            <li
              key={i}
              className={`todo ${t.status}`}
              aria-current={t.status === 'in_progress' ? 'step' : undefined}
            >
              <span className="todo-mark" aria-hidden="true">
                {MARK[t.status]}
              </span>
              <span className="todo-label">{t.label}</span>
              <span className="visually-hidden">({STATUS_TEXT[t.status]})</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
