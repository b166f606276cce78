import { isObject } from '../../../shared/is-object';
import { ANTHROPIC_MAX_CACHE_BREAKPOINTS } from './constants';
import type { ModelImage, ModelMessage, ToolSpec } from './types';

// The Messages API request body from the provider-neutral conversation: roles merged to alternate
// (starting with a user turn), tool results leading their user message, thinking blocks sent back
// verbatim ahead of the turn's text and tool calls, images as base64 image blocks, and the prompt
// cache breakpoints.

export type Block = { type: string; [key: string]: unknown };
export interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}
interface WireTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: { type: 'ephemeral' };
}

const EPHEMERAL = { type: 'ephemeral' } as const;

function imageBlock(img: ModelImage): Block {
  return { type: 'image', source: { type: 'base64', media_type: img.mediaType, data: img.data } };
}

export function toAnthropicMessages(messages: ModelMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  const push = (role: WireMessage['role'], blocks: Block[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last?.role === role) {
      // tool_result blocks must lead a user message: keep them ahead of text merged into it.
      if (role === 'user') {
        const results = [...last.content, ...blocks].filter((b) => b.type === 'tool_result');
        const rest = [...last.content, ...blocks].filter((b) => b.type !== 'tool_result');
        last.content = [...results, ...rest];
      } else last.content.push(...blocks);
    } else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') {
      push('user', [
        ...(m.images ?? []).map(imageBlock),
        ...(m.text ? [{ type: 'text', text: m.text }] : []),
      ]);
    } else if (m.role === 'tool') {
      const text = m.content || '(empty)';
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: m.callId,
          content: m.images?.length ? [{ type: 'text', text }, ...m.images.map(imageBlock)] : text,
          ...(m.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      // Thinking blocks go back exactly as they came (their signature covers the text), and only
      // to Anthropic: another provider's reasoning items mean nothing here.
      const blocks: Block[] =
        m.reasoning?.provider === 'anthropic' ? m.reasoning.items.map((b) => ({ ...b })) : [];
      if (m.text) blocks.push({ type: 'text', text: m.text });
      for (const c of m.toolCalls)
        blocks.push({
          type: 'tool_use',
          id: c.id,
          name: c.name,
          input: isObject(c.args) ? c.args : {},
        });
      push('assistant', blocks);
    }
  }
  if (out[0]?.role !== 'user')
    out.unshift({ role: 'user', content: [{ type: 'text', text: '(continue)' }] });
  return out;
}

/**
 * Prompt caching: a breakpoint after the tools, one after the system prompt (the stable prefix),
 * and one on each of the two newest user messages. The newest one writes the whole conversation
 * to the cache; the one before sits exactly where the previous request's newest breakpoint was,
 * so that request's cache entry is read back however many blocks the last turn added (the API
 * only looks back 20 blocks from a breakpoint for an earlier entry). Thinking blocks cannot carry
 * cache_control; the last block of a user message is never one. At most 4 (the API's limit).
 */
export function withCacheBreakpoints(
  tools: ToolSpec[],
  system: string,
  messages: WireMessage[],
): { tools: WireTool[]; system: Block[]; messages: WireMessage[] } {
  let budget = ANTHROPIC_MAX_CACHE_BREAKPOINTS;
  const wireTools: WireTool[] = tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters,
  }));
  if (wireTools.length) {
    wireTools[wireTools.length - 1] = {
      ...wireTools[wireTools.length - 1]!,
      cache_control: EPHEMERAL,
    };
    budget--;
  }
  const wireSystem: Block[] = system
    ? [{ type: 'text', text: system, cache_control: EPHEMERAL }]
    : [];
  if (wireSystem.length) budget--;
  const marked = messages.map((m) => ({ role: m.role, content: [...m.content] }));
  for (let i = marked.length - 1; i >= 0 && budget > 0; i--) {
    const m = marked[i]!;
    if (m.role !== 'user') continue;
    const last = m.content.length - 1;
    m.content[last] = { ...m.content[last]!, cache_control: EPHEMERAL };
    budget--;
  }
  return { tools: wireTools, system: wireSystem, messages: marked };
}
