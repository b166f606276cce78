import type { Hover, MarkedString, MarkupContent } from 'vscode-languageserver-protocol/node';
import { MAX_HOVER_CHARS } from './constants';

// Hover contents come in three historical shapes (MarkupContent, MarkedString, a list of them);
// the model gets one plain string, code blocks kept as fenced markdown.

function markedToText(item: MarkedString): string {
  return typeof item === 'string' ? item : `\`\`\`${item.language}\n${item.value}\n\`\`\``;
}

export function hoverText(hover: Hover | null | undefined): { text: string; truncated: boolean } {
  if (!hover) return { text: '', truncated: false };
  const contents = hover.contents as MarkupContent | MarkedString | MarkedString[];
  const raw = Array.isArray(contents)
    ? contents.map(markedToText).join('\n\n')
    : typeof contents === 'object' && 'kind' in contents
      ? contents.value
      : markedToText(contents);
  const text = raw.trim();
  return text.length > MAX_HOVER_CHARS
    ? { text: `${text.slice(0, MAX_HOVER_CHARS)}…`, truncated: true }
    : { text, truncated: false };
}
