import { useState } from 'react';
import { askNotificationPermission } from '../../state/waiting-signals';
import { Dialog } from '../common/Dialog';
import { useUi, type ThemePreference } from '../../state/ui-store';
import { ModelSettings } from './settings/ModelSettings';
import { AgentSettings } from './settings/AgentSettings';
import { McpSettings } from './settings/McpSettings';
import { TrustSettings } from './settings/TrustSettings';
import { RulesSettings } from './settings/RulesSettings';
import { BrowserLogin } from './settings/BrowserLogin';

type Tab = 'model' | 'agent' | 'mcp' | 'trust' | 'rules' | 'browser' | 'appearance';
const TABS: { id: Tab; label: string }[] = [
  { id: 'model', label: 'Model' },
  { id: 'agent', label: 'Agent & sandbox' },
  { id: 'mcp', label: 'MCP servers' },
  { id: 'trust', label: 'Trusted projects' },
  { id: 'rules', label: 'Rules, hooks & skills' },
  { id: 'browser', label: 'Browser login' },
  { id: 'appearance', label: 'Appearance' },
];

/** Settings (Ctrl/Cmd+,): model and key, permissions, sandbox state, MCP servers, edit backend, theme. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('model');
  return (
    <Dialog label="Settings" onClose={onClose} className="settings">
      <header className="dialog-head">
        <h2>Settings</h2>
        <button type="button" className="icon" aria-label="Close settings" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="settings-body">
        <div
          role="tablist"
          aria-label="Settings sections"
          aria-orientation="vertical"
          className="settings-tabs"
        >
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div
          role="tabpanel"
          id={`panel-${tab}`}
          aria-labelledby={`tab-${tab}`}
          className="settings-panel"
        >
          {tab === 'model' && <ModelSettings />}
          {tab === 'agent' && <AgentSettings />}
          {tab === 'mcp' && <McpSettings />}
          {tab === 'trust' && <TrustSettings />}
          {tab === 'rules' && <RulesSettings />}
          {tab === 'browser' && <BrowserLogin />}
          {tab === 'appearance' && <AppearanceSettings />}
        </div>
      </div>
    </Dialog>
  );
}

function AppearanceSettings() {
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  const layout = useUi((s) => s.diffLayout);
  const setLayout = useUi((s) => s.setDiffLayout);
  const notify = useUi((s) => s.notify);
  const setNotify = useUi((s) => s.setNotify);
  return (
    <div className="form">
      <fieldset>
        <legend>Notifications</legend>
        <label className="radio">
          <input
            type="checkbox"
            checked={notify}
            onChange={(e) => {
              setNotify(e.target.checked);
              if (e.target.checked) askNotificationPermission();
            }}
          />
          Notify me when the agent waits for me and this window is not in front
        </label>
      </fieldset>
      <fieldset>
        <legend>Theme</legend>
        {(['system', 'light', 'dark'] as ThemePreference[]).map((t) => (
          <label key={t} className="radio">
            <input type="radio" name="theme" checked={theme === t} onChange={() => setTheme(t)} />
            {t === 'system' ? 'Follow the system' : t === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Diffs</legend>
        <label className="radio">
          <input
            type="radio"
            name="diff"
            checked={layout === 'inline'}
            onChange={() => setLayout('inline')}
          />
          Inline
        </label>
        <label className="radio">
          <input
            type="radio"
            name="diff"
            checked={layout === 'split'}
            onChange={() => setLayout('split')}
          />
          Side by side
        </label>
      </fieldset>
    </div>
  );
}
