import { ModelError } from './model-error';

// Server-sent events from a fetch body: `event:` and `data:` fields, events separated by a blank
// line (LF or CRLF). Comments (`:`) and ids are ignored. A stream that goes silent for longer than
// `idleMs` fails as a network error instead of hanging the run.

export interface SseEvent {
  event: string;
  data: string;
}

export async function* readSse(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  provider: string,
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new ModelError('network', `${provider} sent nothing for ${idleMs / 1000} s`)),
          idleMs,
        );
      });
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await Promise.race([reader.read(), idle]);
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) break;
      buf += decoder.decode(chunk.value, { stream: true });
      buf = buf.replace(/\r\n/g, '\n');
      let sep: number;
      while ((sep = buf.indexOf('\n\n')) !== -1) {
        const block = buf.slice(0, sep);
        buf = buf.slice(sep + 2);
        const parsed = parseBlock(block);
        if (parsed) yield parsed;
      }
    }
    const tail = parseBlock(buf + decoder.decode());
    if (tail) yield tail;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function parseBlock(block: string): SseEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, data: data.join('\n') } : null;
}
