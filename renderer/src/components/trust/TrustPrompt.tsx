import { useState } from 'react';
import { useClient } from '../../client-context';
import { useHostQuery } from '../../lib/use-host-query';
import { errorText } from '../../state/agent-actions';
import { TrustItems } from './TrustItems';

// Asks once per project whether to trust it, without blocking the conversation: the session and
// its confined shells work either way; only what the list names waits for trust.

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
