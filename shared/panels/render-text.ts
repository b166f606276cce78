import type { PanelNode } from './components';

// The plain-text rendering every panel carries: what a CLI, an email or a chat client shows, and
// what a replay without the console can still read. Indentation shows nesting.

const INDENT = '  ';

function renderNode(node: PanelNode, pad: string, out: string[]): void {
  if ('unsupported' in node) {
    out.push(`${pad}[unsupported component: ${node.type}]`);
    return;
  }
  switch (node.type) {
    case 'Text':
      for (const line of node.text.split('\n')) out.push(`${pad}${line}`);
      return;
    case 'Heading':
      out.push(`${pad}${'#'.repeat(node.level)} ${node.text}`);
      return;
    case 'Card':
      out.push(`${pad}[${node.title ?? 'Card'}]`);
      for (const child of node.children) renderNode(child, pad + INDENT, out);
      return;
    case 'Stack':
      if (node.direction === 'row' && node.children.every((c) => c.type === 'Badge')) {
        out.push(
          pad +
            node.children
              .map((c) => (c.type === 'Badge' && 'label' in c ? `[${c.label}]` : ''))
              .join(' '),
        );
        return;
      }
      for (const child of node.children) renderNode(child, pad, out);
      return;
    case 'Badge':
      out.push(`${pad}[${node.label}]`);
      return;
    case 'KeyValue': {
      const width = Math.max(...node.items.map((i) => i.label.length));
      for (const item of node.items)
        out.push(`${pad}${(item.label + ':').padEnd(width + 1)} ${item.value}`);
      return;
    }
    case 'Table': {
      const widths = node.headers.map((h, c) =>
        Math.max(h.length, ...node.rows.map((r) => (r[c] ?? '').length)),
      );
      const row = (cells: string[]) =>
        pad +
        cells
          .map((cell, c) => cell.padEnd(widths[c] ?? 0))
          .join(' | ')
          .trimEnd();
      out.push(row(node.headers));
      out.push(pad + widths.map((w) => '-'.repeat(Math.max(w, 1))).join('-|-'));
      for (const r of node.rows) out.push(row(r));
      return;
    }
    case 'CodeBlock':
      out.push(`${pad}\`\`\`${node.language ?? ''}`);
      for (const line of node.code.split('\n')) out.push(`${pad}${line}`);
      out.push(`${pad}\`\`\``);
      return;
    case 'Alert': {
      const head = `${pad}${node.tone.toUpperCase()}${node.title ? `: ${node.title}` : ''}`;
      out.push(node.title ? head : `${head}: ${node.text.split('\n')[0] ?? ''}`);
      const body = node.title ? node.text.split('\n') : node.text.split('\n').slice(1);
      for (const line of body) out.push(`${pad}${INDENT}${line}`);
      return;
    }
    case 'Divider':
      out.push(`${pad}---`);
      return;
    case 'Link':
      out.push(`${pad}${node.label} <${node.href}>`);
      return;
  }
}

export function renderPanelText(tree: readonly PanelNode[]): string {
  const out: string[] = [];
  for (const node of tree) renderNode(node, '', out);
  return out.join('\n');
}
