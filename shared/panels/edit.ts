import { isContainer, type ContainerNode, type PanelNode } from './components';

// Incremental building: a Card or Stack carrying an id can be appended into or updated by a later
// present_ui call naming the panel (`ui_id`) and the container (`spec.target`). The result is
// always the complete tree, so every event is an ordinary panel replacement for other clients.

export type PanelEditOp = 'append' | 'update';

export type PanelEditResult = { ok: true; tree: PanelNode[] } | { ok: false; error: string };

/** Every container id in a tree, for error messages that list what the model could target. */
export function containerIds(tree: readonly PanelNode[]): string[] {
  const ids: string[] = [];
  const visit = (nodes: readonly PanelNode[]) => {
    for (const n of nodes) {
      if (!isContainer(n)) continue;
      if (n.id) ids.push(n.id);
      visit(n.children);
    }
  };
  visit(tree);
  return ids;
}

function mapContainer(
  nodes: readonly PanelNode[],
  target: string,
  fn: (c: ContainerNode) => PanelNode,
): { nodes: PanelNode[]; found: boolean } {
  let found = false;
  const out = nodes.map((n) => {
    if (found || !isContainer(n)) return n;
    if (n.id === target) {
      found = true;
      return fn(n);
    }
    const inner = mapContainer(n.children, target, fn);
    if (!inner.found) return n;
    found = true;
    return { ...n, children: inner.nodes };
  });
  return { nodes: out, found };
}

/**
 * `append`: `nodes` are added after the container's children. `update`: `nodes` must be exactly one
 * Card or Stack, which replaces the container (fields and children); it keeps the target's id.
 */
export function applyPanelEdit(
  tree: readonly PanelNode[],
  target: string,
  op: PanelEditOp,
  nodes: readonly PanelNode[],
): PanelEditResult {
  if (op === 'update') {
    const [only] = nodes;
    if (nodes.length !== 1 || !only || !isContainer(only)) {
      return {
        ok: false,
        error: `op "update" takes exactly one Card or Stack in spec.root to replace container '${target}'`,
      };
    }
  }
  const result = mapContainer(tree, target, (c) =>
    op === 'append'
      ? { ...c, children: [...c.children, ...nodes] }
      : { ...(nodes[0] as ContainerNode), id: target },
  );
  if (!result.found) {
    const ids = containerIds(tree);
    return {
      ok: false,
      error: `no Card or Stack with id '${target}' in this panel${ids.length ? `; its container ids: ${ids.join(', ')}` : '; it has no container with an id'}`,
    };
  }
  return { ok: true, tree: result.nodes };
}
