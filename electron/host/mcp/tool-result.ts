import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { RESULT_MAX_CHARS, RESULT_TAIL_SHARE } from './constants';

/**
 * An MCP result as a payload: text parts joined, binary parts named but not inlined (a base64
 * image would cost context and log space for nothing the model reads as text), cut over the size
 * limit with the head and tail kept and a note saying what was cut.
 */
export function mcpResultPayload(
  server: string,
  tool: string,
  result: CallToolResult,
  maxChars = RESULT_MAX_CHARS,
): ToolPayload {
  const parts: string[] = [];
  const omitted: { type: string; mime_type?: string; bytes?: number; uri?: string }[] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'image' || item.type === 'audio') {
      const bytes = Math.floor((item.data.length * 3) / 4);
      omitted.push({ type: item.type, mime_type: item.mimeType, bytes });
      parts.push(`[${item.type} ${item.mimeType}, ${bytes} bytes, not shown]`);
    } else if (item.type === 'resource') {
      const r = item.resource;
      if ('text' in r && typeof r.text === 'string') parts.push(`[resource ${r.uri}]\n${r.text}`);
      else {
        omitted.push({
          type: 'resource',
          uri: r.uri,
          ...(r.mimeType ? { mime_type: r.mimeType } : {}),
        });
        parts.push(`[binary resource ${r.uri}, not shown]`);
      }
    } else if (item.type === 'resource_link')
      parts.push(`[resource link ${item.name}: ${item.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  const { text, truncated } = capText(parts.join('\n\n'), maxChars);
  if (result.isError)
    return errorPayload('mcp_tool_error', text || `${tool} failed without a message`, {
      server,
      tool,
    });
  return {
    kind: 'mcp_result',
    server,
    tool,
    text,
    ...(truncated ? { truncated } : {}),
    ...(omitted.length ? { omitted } : {}),
    ...(result.structuredContent !== undefined && !truncated
      ? { structured: result.structuredContent }
      : {}),
  };
}

export function capText(
  text: string,
  max = RESULT_MAX_CHARS,
): { text: string; truncated?: { total_chars: number; shown_chars: number } } {
  if (text.length <= max) return { text };
  const tail = Math.floor(max * RESULT_TAIL_SHARE);
  const head = max - tail;
  const cut = text.length - max;
  const note = `\n\n... [${cut} characters cut here: the result was ${text.length} characters, over the ${max}-character limit for MCP results; the start and the end are kept] ...\n\n`;
  return {
    text: text.slice(0, head) + note + text.slice(text.length - tail),
    truncated: { total_chars: text.length, shown_chars: max },
  };
}
