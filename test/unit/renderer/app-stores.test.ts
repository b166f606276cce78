import { describe, expect, it } from 'vitest';
import { createAppStores } from '../../../renderer/src/state/app-stores';
import { showProject } from '../../../renderer/src/state/switch-project';
import type { SessionSummary } from '../../../shared/protocol/session-summary';

// The app-wide stores belong to one app instance (the composition root makes one set), not to the
// module: two instances, like two tests, never see each other's state.

const summary = (id: string, project: string | null, updated_at: number) =>
  ({ id, title: id, project, updated_at, created_at: 0, run_state: 'idle' }) as SessionSummary;

describe('app stores', () => {
  it('two app instances do not share state', () => {
    const a = createAppStores();
    const b = createAppStores();
    expect(a.sessions).not.toBe(b.sessions);

    a.sessions.getState().setSessions([summary('s1', null, 1)]);
    a.sessions.getState().select('s1');
    a.ui.getState().openDialog('settings');
    a.ui.getState().setExpanded('k', true);
    a.projects.getState().setListing([], ['/p']);
    a.find.getState().show();
    a.find.getState().setQuery('needle');
    a.views.get('s1');

    expect(a.sessions.getState().currentId).toBe('s1');
    expect(b.sessions.getState().sessions).toEqual([]);
    expect(b.sessions.getState().currentId).toBeNull();
    expect(b.ui.getState().dialog).toBeNull();
    expect(b.ui.getState().expanded).toEqual({});
    expect(b.projects.getState().loaded).toBe(false);
    expect(b.projects.getState().recent).toEqual([]);
    expect(b.find.getState()).toMatchObject({ open: false, query: '', focus: 0 });
    expect(b.views.peek('s1')).toBeUndefined();
  });

  it('showProject acts on the stores it is given, and only on them', () => {
    const a = createAppStores();
    const b = createAppStores();
    const list = [summary('old', '/p', 1), summary('new', '/p', 2), summary('other', '/q', 3)];
    a.sessions.getState().setSessions(list);
    b.sessions.getState().setSessions(list);

    showProject(a, '/p');

    expect(a.projects.getState().current).toBe('/p');
    expect(a.sessions.getState().currentId).toBe('new');
    expect(b.projects.getState().current).toBeNull();
    expect(b.sessions.getState().currentId).toBeNull();
  });
});
