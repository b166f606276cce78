import { useEffect, useState } from 'react';
import { useClient } from '../../client-context';

// While the message starts with "/" and no argument yet, the user's slash commands and skills
// that match (issue 20), each with its description and origin; picking one fills "/name ".

interface Entry {
  name: string;
  description: string;
  argument_hint?: string;
  kind: 'command' | 'skill';
  scope: 'user' | 'project';
}

const TYPING_NAME = /^\/([A-Za-z0-9_.:-]*)$/;

export function SlashMenu(props: { sessionId: string; draft: string; onPick(text: string): void }) {
  const client = useClient();
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const typing = TYPING_NAME.exec(props.draft);
  const active = typing !== null;

  useEffect(() => {
    if (!active) return;
    let live = true;
    client
      .invoke('commands.list', { id: props.sessionId })
      .then((r) => live && setEntries(r.commands))
      .catch(() => live && setEntries([]));
    return () => {
      live = false;
    };
  }, [active, client, props.sessionId]);

  if (!typing || !entries) return null;
  const shown = entries.filter((e) => e.name.startsWith(typing[1]!));
  if (!shown.length) return null;
  return (
    <ul className="slash-menu" role="listbox" aria-label="Commands">
      {shown.map((e) => (
        <li key={`${e.kind}:${e.name}`} role="option" aria-selected={false}>
          <button type="button" onClick={() => props.onPick(`/${e.name} `)}>
            <code>/{e.name}</code>
            {e.argument_hint ? <span className="muted"> {e.argument_hint}</span> : null}
            <span className="muted small">
              {' '}
              {e.description} ({e.kind === 'skill' ? 'skill, ' : ''}
              {e.scope === 'user' ? 'yours' : 'project'})
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
