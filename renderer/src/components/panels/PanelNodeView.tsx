import type { ReactNode } from 'react';
import type { PanelNode } from '../../../../shared/panels/components';
import { safeExternalHref } from '../../lib/links';

// One node of a present_ui tree, from the fixed vocabulary. Fields only, no markup: every string
// is drawn as text. An unknown component is a placeholder row, and a link goes only to http,
// https or mailto and opens outside the app.

export function PanelNodes({ nodes }: { nodes: readonly PanelNode[] }) {
  return (
    <>
      {nodes.map((n, i) => (
        <PanelNodeView key={i} node={n} />
      ))}
    </>
  );
}

function PanelNodeView({ node }: { node: PanelNode }): ReactNode {
  if ('unsupported' in node) {
    return (
      <div className="p-unknown" role="note">
        Unsupported component <code>{node.type}</code>
      </div>
    );
  }
  switch (node.type) {
    case 'Text':
      return <p className={`p-text ${node.muted ? 'muted' : ''}`}>{node.text}</p>;
    case 'Heading': {
      const H = (['h3', 'h4', 'h5'] as const)[node.level - 1] ?? 'h4';
      return <H className={`p-heading l${node.level}`}>{node.text}</H>;
    }
    case 'Card':
      return (
        <section className="p-card" aria-label={node.title}>
          {node.title && <h4 className="p-card-title">{node.title}</h4>}
          <PanelNodes nodes={node.children} />
        </section>
      );
    case 'Stack':
      return (
        <div className={`p-stack ${node.direction} gap-${node.gap}`}>
          <PanelNodes nodes={node.children} />
        </div>
      );
    case 'Badge':
      return <span className={`p-badge ${node.tone}`}>{node.label}</span>;
    case 'KeyValue':
      return (
        <dl className="kv p-kv">
          {node.items.map((it, i) => (
            <div key={i} className="kv-row">
              <dt>{it.label}</dt>
              <dd>{it.value}</dd>
            </div>
          ))}
        </dl>
      );
    case 'Table':
      return (
        <div className="p-table-wrap">
          <table className="p-table">
            <thead>
              <tr>
                {node.headers.map((h, i) => (
                  <th key={i}>{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {node.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((c, i) => (
                    <td key={i}>{c}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'CodeBlock':
      return (
        <pre className="code small p-code" data-language={node.language}>
          {node.code}
        </pre>
      );
    case 'Alert':
      return (
        <div className={`p-alert ${node.tone}`} role="note">
          {node.title && <strong>{node.title}</strong>} {node.text}
        </div>
      );
    case 'Divider':
      return <hr className="p-divider" />;
    case 'Link': {
      const href = safeExternalHref(node.href);
      return href ? (
        <a className="p-link" href={href} target="_blank" rel="noopener noreferrer">
          {node.label}
        </a>
      ) : (
        <span className="p-link blocked">{node.label}</span>
      );
    }
  }
}
