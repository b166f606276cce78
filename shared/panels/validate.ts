import type { z } from 'zod';
import { componentSchemas, isKnownComponent, type PanelNode, type UnknownNode } from './components';
import { PANEL_MAX_DEPTH, PANEL_MAX_NODES, PANEL_MAX_SERIALIZED_CHARS } from './limits';

// Validates a model-authored tree against the vocabulary and the hard limits. Errors name the path
// (`root[1].children[0].href`) and the limit, so the model can correct the tree and present again.

export type PanelValidation =
  | { ok: true; tree: PanelNode[]; nodeCount: number; unsupported: string[] }
  | { ok: false; errors: string[] };

/** Errors reported at once: enough to fix a tree in one retry without flooding the context. */
const MAX_ERRORS_REPORTED = 20;

function formatIssues(path: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const at = [
      path,
      ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)),
    ].join('');
    return `${at}: ${issue.message}`;
  });
}

interface Walk {
  count: number;
  errors: string[];
  unsupported: Set<string>;
  ids: Map<string, string>;
}

function walkNodes(raw: unknown, path: string, depth: number, w: Walk): PanelNode[] {
  if (!Array.isArray(raw)) {
    w.errors.push(`${path}: expected an array of nodes`);
    return [];
  }
  const out: PanelNode[] = [];
  raw.forEach((item, i) => {
    const at = `${path}[${i}]`;
    w.count += 1;
    if (w.count === PANEL_MAX_NODES + 1)
      w.errors.push(`${at}: a panel holds at most ${PANEL_MAX_NODES} nodes`);
    if (depth > PANEL_MAX_DEPTH) {
      w.errors.push(`${at}: nested deeper than ${PANEL_MAX_DEPTH} levels`);
      return;
    }
    const node = walkNode(item, at, depth, w);
    if (node) out.push(node);
  });
  return out;
}

function walkNode(item: unknown, at: string, depth: number, w: Walk): PanelNode | null {
  if (!item || typeof item !== 'object' || Array.isArray(item)) {
    w.errors.push(`${at}: expected a node object like {"type": "Text", "text": "..."}`);
    return null;
  }
  const type = (item as { type?: unknown }).type;
  if (typeof type !== 'string' || type.length === 0) {
    w.errors.push(`${at}.type: every node needs a component type`);
    return null;
  }
  if (!isKnownComponent(type)) {
    w.unsupported.add(type.slice(0, 60));
    return { type: type.slice(0, 60), unsupported: true } satisfies UnknownNode;
  }
  const parsed = componentSchemas[type].safeParse(item);
  if (!parsed.success) {
    w.errors.push(...formatIssues(at, parsed.error));
    return null;
  }
  const node = parsed.data as { type: string; id?: string; children?: unknown };
  if (parsed.data.type === 'Table') {
    const { headers, rows } = parsed.data as { headers: string[]; rows: string[][] };
    const width = headers.length;
    rows.forEach((row, r) => {
      if (row.length !== width)
        w.errors.push(`${at}.rows[${r}]: has ${row.length} cells, the table has ${width} headers`);
    });
  }
  if (node.id !== undefined) {
    const first = w.ids.get(node.id);
    if (first)
      w.errors.push(
        `${at}.id: '${node.id}' is already used at ${first}; container ids are unique in a panel`,
      );
    else w.ids.set(node.id, at);
  }
  if ('children' in node) {
    return {
      ...node,
      children: walkNodes(node.children, `${at}.children`, depth + 1, w),
    } as PanelNode;
  }
  return node as PanelNode;
}

/** Checks a whole tree (`spec.root`). */
export function validatePanelTree(root: unknown, path = 'root'): PanelValidation {
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(root);
  } catch {
    return { ok: false, errors: [`${path}: not serializable as JSON`] };
  }
  if (serialized === undefined) return { ok: false, errors: [`${path}: missing`] };
  if (serialized.length > PANEL_MAX_SERIALIZED_CHARS) {
    return {
      ok: false,
      errors: [
        `${path}: serializes to ${serialized.length} characters; a panel is at most ${PANEL_MAX_SERIALIZED_CHARS}`,
      ],
    };
  }
  const w: Walk = { count: 0, errors: [], unsupported: new Set(), ids: new Map() };
  const tree = walkNodes(root, path, 1, w);
  if (w.errors.length) {
    const shown = w.errors.slice(0, MAX_ERRORS_REPORTED);
    if (w.errors.length > shown.length)
      shown.push(`... and ${w.errors.length - shown.length} more errors`);
    return { ok: false, errors: shown };
  }
  return { ok: true, tree, nodeCount: w.count, unsupported: [...w.unsupported] };
}
