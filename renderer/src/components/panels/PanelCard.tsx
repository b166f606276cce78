import { memo, useMemo } from 'react';
import type { PanelItem } from '../../state/timeline-items';
import { validatePanelTree } from '../../../../shared/panels/validate';
import { PanelNodes } from './PanelNodeView';

/** The tree under `spec.root` (present_ui's shape); a bare array is accepted too. */
function rootOf(spec: unknown): unknown {
  if (Array.isArray(spec)) return spec;
  if (spec && typeof spec === 'object' && 'root' in spec) return (spec as { root: unknown }).root;
  return spec;
}

/**
 * A present_ui panel. The tree is validated again here: the host checked it, but the renderer
 * draws only what the shared vocabulary allows whatever reaches it. An invalid tree falls back to
 * the plain-text rendering every panel carries.
 */
export const PanelCard = memo(function PanelCard({ item }: { item: PanelItem }) {
  const checked = useMemo(() => validatePanelTree(rootOf(item.spec)), [item.spec]);
  return (
    <article className="card panel" aria-label={`Panel: ${item.summary || item.uiId}`}>
      {item.summary && (
        <header className="card-head static">
          <span className="card-title">{item.summary}</span>
        </header>
      )}
      <div className="card-body panel-body">
        {checked.ok ? (
          <PanelNodes nodes={checked.tree} />
        ) : (
          <pre className="code small">{item.text}</pre>
        )}
      </div>
    </article>
  );
});
