import { createParser } from 'eventsource-parser';
import { ModelError } from './model-error';

// Server-sent events from a fetch body, parsed by eventsource-parser (the WHATWG algorithm: LF,
// CR or CRLF, comments, ids, retry, multi-line data). A stream that goes silent for longer than
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
  const ready: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e) => ready.push({ event: e.event ?? 'message', data: e.data }),
  });
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
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      yield* ready.splice(0);
    }
    // A last event without its blank line still counts (some servers close right after data:).
    parser.feed(`${decoder.decode()}\n\n`);
    yield* ready.splice(0);
  } finally {
    await reader.cancel().catch(() => {});
  }
}
