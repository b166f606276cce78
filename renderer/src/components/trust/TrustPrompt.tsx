import { useState } from 'react';
import type { ContentChange } from '../../../../shared/protocol/commands/trust';
import { useClient } from '../../client-context';
import { useHostQuery } from '../../lib/use-host-query';
import { errorText } from '../../state/agent-actions';
import { TrustItems } from './TrustItems';
import { DiffView } from '../cards/DiffView';

// Asks once per project whether to trust it, without blocking the conversation: the session and
// its confined shells work either way; only what the list names waits for trust. A trusted
// project whose settings or `.mcp.json` changed since asks again with the diff (the host uses
// nothing from a changed file until then), every time there is a change.

const ASKED_KEY = 'mewbo.trust.asked:';

function wasAsked(root: string): boolean {
  try {
    return localStorage.getItem(ASKED_KEY + root) === '1';
  } catch {
    return false;
  }
}

function rememberAsked(root: string): void {
  try {
    localStorage.setItem(ASKED_KEY + root, '1');
  } catch {
    // storage unavailable: the prompt may show again next time, which is harmless
  }
}

export function TrustPrompt({ root }: { root: string | null }) {
  if (!root) return null;
  return <TrustQuestion key={root} root={root} />;
}

function TrustQuestion({ root }: { root: string }) {
  const client = useClient();
  const q = useHostQuery('trust.status', { path: root }, 'trust');
  const [hidden, setHidden] = useState(() => wasAsked(root));
  const [error, setError] = useState<string | null>(null);
  const status = q.data;
  if (status?.trusted && status.changed.length > 0)
    return <RetrustQuestion root={root} changed={status.changed} />;
  if (hidden || !status || status.trusted || status.would_start.length === 0) return null;

  const answer = async (trust: boolean) => {
    setError(null);
    try {
      if (trust) await client.invoke('trust.grant', { path: root });
      rememberAsked(root);
      setHidden(true);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div role="region" aria-label="Workspace trust" className="banner trust-prompt">
      <p>
        <strong>Trust this project?</strong> It is not trusted, so nothing it contains is started.
        Trusting <code>{root}</code> would start:
      </p>
      <TrustItems items={status.would_start} />
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void answer(true)}>
          Trust project
        </button>
        <button type="button" onClick={() => void answer(false)}>
          Not now
        </button>
      </div>
    </div>
  );
}

function RetrustQuestion({ root, changed }: { root: string; changed: ContentChange[] }) {
  const client = useClient();
  const [error, setError] = useState<string | null>(null);
  const [hidden, setHidden] = useState(false);
  if (hidden) return null;
  const accept = async () => {
    setError(null);
    try {
      await client.invoke('trust.grant', { path: root });
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div role="region" aria-label="Workspace trust changed" className="banner trust-prompt">
      <p>
        <strong>Trust these changes?</strong> Since you trusted <code>{root}</code>, these files
        changed; their rules, hooks and servers are not used until you trust them:
      </p>
      {changed.map((c) => (
        <div key={c.file}>
          <p>
            <code>{c.file}</code> ({c.state})
          </p>
          <DiffView text={c.diff} layout="inline" />
        </div>
      ))}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void accept()}>
          Trust the changes
        </button>
        <button type="button" onClick={() => setHidden(true)}>
          Not now
        </button>
      </div>
    </div>
  );
}
