import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import fuzzysort from 'fuzzysort';
import { useClient } from '../../client-context';
import { useProjects } from '../../state/projects-store';
import { useAppStores } from '../../state/session-views-context';
import { openFolderAsProject, showProject } from '../../state/switch-project';
import { errorText } from '../../state/agent-actions';
import { Dialog } from '../common/Dialog';
import { actionOptions, folderOptions, pickerOptions, type PickerOption } from './picker-options';
import { ConnectHostDialog } from './ConnectHostDialog';
import { HostKeyDialog } from './HostKeyDialog';
import type { ProjectEntry } from '../../state/projects-store';

/**
 * The command-palette project picker (Ctrl/Cmd+P): fuzzy search over the registry, recent
 * projects first, worktrees under their project, "Open folder" for a path not yet registered and
 * "New worktree" of the current project for a branch name, "Connect to host..." (and an ssh://
 * URL typed) for a folder on an SSH host. A path typed (from `/`) is a folder
 * browser: the host's folders completing it are listed, Tab (or Right at the end) takes the
 * highlighted one into the box and lists its folders, Enter opens the highlighted one.
 * Keyboard only: type, Up/Down, Tab, Enter; Escape closes.
 */
export function ProjectPicker({ onClose }: { onClose: () => void }) {
  const client = useClient();
  const stores = useAppStores();
  const projects = useProjects((s) => s.projects);
  const recent = useProjects((s) => s.recent);
  const current = useProjects((s) => s.current);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // The picker's list, or in its place the connect form or a remote project's host-key step.
  const [step, setStep] = useState<'list' | 'connect' | ProjectEntry>('list');
  const loaded = useProjects((s) => s.loaded);
  // Enter pressed before the registry arrived acts once it is there, on what was typed.
  const [enterPending, setEnterPending] = useState(false);
  const typedPath = query.trim().startsWith('/') ? query.trim() : null;
  const [completion, setCompletion] = useState<{ path: string; folders: string[] } | null>(null);
  useEffect(() => {
    if (!typedPath) return;
    let live = true;
    client.invoke('projects.completeFolder', { path: typedPath }).then(
      (r) => live && setCompletion({ path: typedPath, folders: r.folders }),
      () => live && setCompletion({ path: typedPath, folders: [] }),
    );
    return () => {
      live = false;
    };
  }, [client, typedPath]);
  // Only the completion of what is in the box now: a slower answer for an older path is not shown.
  const folders = useMemo(
    () => (typedPath && completion?.path === typedPath ? completion.folders : []),
    [typedPath, completion],
  );

  const options = useMemo(() => {
    const all = pickerOptions(projects, recent, current);
    const q = query.trim();
    const actions = actionOptions(
      q,
      projects.find((p) => p.key === current),
    );
    if (!q) return [...all, ...actions];
    // An ssh:// URL being typed is one thing to add, first, where Enter takes it.
    if (actions[0]?.type === 'remote-url') return actions;
    const hits = fuzzysort
      .go(q, all, { keys: ['label', 'detail', 'key'], threshold: 0.3 })
      .map((r) => ({ ...r.obj, section: 'Matches' }));
    return [...hits, ...folderOptions(folders), ...actions];
  }, [projects, recent, current, query, folders]);
  const clamped = Math.min(active, options.length - 1);

  // A remote project just added is found by its name in the list, highlighted, one Enter away.
  const showAdded = (project: ProjectEntry) => {
    setStep('list');
    setQuery(project.name);
    setActive(0);
  };

  const choose = async (opt: PickerOption | undefined) => {
    if (!opt) return;
    setError(null);
    if (opt.type === 'connect-host') {
      setStep('connect');
      return;
    }
    if (opt.type === 'remote-url') {
      try {
        showAdded((await client.invoke('projects.addRemote', { url: query.trim() })).project);
      } catch (err) {
        setError(errorText(err));
      }
      return;
    }
    if (opt.project?.remote?.host_key) {
      setStep(opt.project);
      return;
    }
    if (opt.type === 'folder') {
      const path = query.trim();
      if (!path.startsWith('/')) {
        setError('Type the absolute path of a folder, like /home/you/code/app, then press Enter.');
        return;
      }
      try {
        await openFolderAsProject(client, stores, path);
        onClose();
      } catch (err) {
        setError(errorText(err));
      }
      return;
    }
    if (opt.type === 'directory' && opt.path) {
      try {
        await openFolderAsProject(client, stores, opt.path);
        onClose();
      } catch (err) {
        setError(errorText(err));
      }
      return;
    }
    if (opt.type === 'new-worktree' && opt.key) {
      try {
        const r = await client.invoke('projects.createWorktree', {
          project: opt.key,
          branch: query.trim(),
        });
        await client.invoke('projects.open', { project: r.project.key });
        showProject(stores, r.project.key);
        onClose();
      } catch (err) {
        setError(errorText(err));
      }
      return;
    }
    if (opt.project && !opt.project.available && !opt.project.remote) {
      setError(`${opt.label} has no checkout on this computer yet.`);
      return;
    }
    try {
      if (opt.key) await client.invoke('projects.open', { project: opt.key });
      showProject(stores, opt.key ?? null);
      onClose();
    } catch (err) {
      setError(errorText(err));
    }
  };

  // Tab, or Right with the caret at the end, takes the highlighted folder (else the first) into
  // the box, as a shell completes a path; its own folders are listed next.
  const complete = (e: KeyboardEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    if (e.key === 'ArrowRight' && input.selectionStart !== input.value.length) return false;
    const active = options[clamped];
    const target =
      active?.type === 'directory' ? active : options.find((o) => o.type === 'directory');
    if (!target?.path) return false;
    e.preventDefault();
    setQuery(`${target.path}/`);
    setActive(0);
    return true;
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (((e.key === 'Tab' && !e.shiftKey) || e.key === 'ArrowRight') && typedPath) {
      if (complete(e)) return;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = options.length;
      setActive((clamped + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (loaded) void choose(options[clamped]);
      else setEnterPending(true);
    }
  };
  useEffect(() => {
    if (!loaded || !enterPending) return;
    setEnterPending(false);
    void choose(options[clamped]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, enterPending]);

  if (step === 'connect')
    return <ConnectHostDialog onAdded={showAdded} onBack={() => setStep('list')} />;
  if (step !== 'list' && step.remote?.host_key)
    return (
      <HostKeyDialog
        name={step.name}
        refusal={step.remote.host_key}
        onClose={() => setStep('list')}
      />
    );

  let lastSection = '';
  return (
    <Dialog label="Open project" onClose={onClose} className="picker">
      <input
        role="combobox"
        aria-label="Search projects"
        aria-expanded="true"
        aria-controls="picker-list"
        aria-activedescendant={options[clamped] ? `opt-${options[clamped].id}` : undefined}
        className="picker-input"
        placeholder="Search projects, or type a folder path"
        value={query}
        autoFocus
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
      />
      {error && (
        <p className="error-text small" role="alert">
          {error}
        </p>
      )}
      <ul id="picker-list" role="listbox" aria-label="Projects" className="picker-list">
        {options.map((o, i) => {
          const head = o.section !== lastSection ? o.section : null;
          lastSection = o.section;
          return (
            <li key={o.id} role="presentation">
              {head && (
                <div className="picker-section" role="presentation">
                  {head}
                </div>
              )}
              <div
                id={`opt-${o.id}`}
                role="option"
                aria-selected={i === clamped}
                className={`picker-option ${i === clamped ? 'active' : ''} ${o.project && !o.project.available && !o.project.remote ? 'unavailable' : ''}`}
                onMouseMove={() => setActive(i)}
                onClick={() => void choose(o)}
              >
                <span className="picker-label">
                  {o.type === 'worktree' && <span className="muted">↳ </span>}
                  {o.label}
                </span>
                {o.current && <span className="chip">current</span>}
                {o.kindLabel && <span className="chip muted">{o.kindLabel}</span>}
                {o.project?.remote && (
                  <span className={`chip link-state ${o.project.remote.state}`}>
                    {o.project.remote.host_key ? 'host key' : o.project.remote.state}
                  </span>
                )}
                {/* A long path is cut at its start: the end names the folder. */}
                <span className="picker-detail" title={o.detail}>
                  <span dir="ltr">{o.detail}</span>
                </span>
              </div>
            </li>
          );
        })}
      </ul>
      {!loaded && <p className="muted small picker-loading">Loading projects…</p>}
      {loaded && projects.length === 0 && !query.trim() && (
        <p className="muted small picker-empty">
          No projects yet. Type the absolute path of a folder (like /home/you/code/app) and press
          Enter to open it, or drop a folder on the window.
        </p>
      )}
      {query.trim() && !typedPath && !options.some((o) => o.section === 'Matches') && (
        <p className="muted small picker-empty" role="status">
          No project matches “{query.trim()}”. To add one, type the path of its folder (starting
          with /, Tab completes it) or drop a folder on the window.
        </p>
      )}
      {typedPath && completion?.path === typedPath && folders.length === 0 && (
        <p className="muted small picker-empty" role="status">
          {typedPath.endsWith('/')
            ? 'No folders inside this one: Enter opens it.'
            : `No folder here starts with “${typedPath.slice(typedPath.lastIndexOf('/') + 1)}”.`}
        </p>
      )}
      <footer className="picker-foot muted small">
        {typedPath ? 'Tab completes the folder · ' : ''}↑↓ to move · Enter to open · Esc to close
      </footer>
    </Dialog>
  );
}
