import { chromium } from '@playwright/test';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireBuild, serve } from './ui-host';
import { tempDir } from '../test/helpers/temp';
import { report } from './report';

// A 60 KB markdown answer streamed into the real UI (built renderer, `mewbo serve`, Debian
// Chromium), issue 17.5: the time from Send until the whole answer is drawn as a finished message,
// over the time the model's server took to send it (first request byte to last response byte).
// The reference is the same stream on the wire: a UI that keeps up finishes just after it.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ANSWER_BYTES = 60 * 1024;
const DELTA_CHARS = 40;
/** Pace of the deltas: ~1,500 deltas over ~6 s, about a fast model's token rate. */
const DELTA_EVERY_MS = 4;
const END = 'END-OF-ANSWER';

requireBuild();

function answer(): string {
  const parts: string[] = [];
  let n = 0;
  while (parts.join('\n\n').length < ANSWER_BYTES) {
    n++;
    parts.push(
      n % 5 === 0
        ? '```ts\n' + `const value${n} = compute(${n});\nexport default value${n};\n` + '```'
        : `## Part ${n}\n\nSome **bold** text, a [link](https://example.com/${n}), and \`code\` in paragraph ${n}; ` +
            'the quick brown fox jumps over the lazy dog. '.repeat(4) +
            `\n\n- item one of ${n}\n- item two of ${n}`,
    );
  }
  parts.push(END);
  return parts.join('\n\n');
}

/** Anthropic Messages over SSE, one text block streamed at a steady pace. */
async function model(text: string) {
  let wireMs = 0;
  const send = (res: ServerResponse, event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const server = createServer((req, res) => {
    const t0 = Date.now();
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      send(res, 'message_start', {
        type: 'message_start',
        message: {
          id: 'msg_bench',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 10, output_tokens: 0 },
        },
      });
      send(res, 'content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      });
      for (let i = 0; i < text.length; i += DELTA_CHARS) {
        send(res, 'content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: text.slice(i, i + DELTA_CHARS) },
        });
        await new Promise((r) => setTimeout(r, DELTA_EVERY_MS));
      }
      send(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
      send(res, 'message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 100 },
      });
      send(res, 'message_stop', { type: 'message_stop' });
      res.end(() => (wireMs = Date.now() - t0));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    wireMs: () => wireMs,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const t = tempDir('mewbo-bench-stream-');
const fake = await model(answer());
const host = await serve(t.dir, { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: fake.url });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.url);
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Write the long answer');
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // Finished: the logged message (not the streaming row) holds the answer's last line.
  await page
    .locator('.msg.assistant:not(.streaming)', { hasText: END })
    .waitFor({ timeout: 300_000 });
  const uiMs = Date.now() - t0;
  report(
    'UI: a 60 KB streamed markdown answer drawn in full (goal <= 1.5x)',
    uiMs,
    'ms',
    fake.wireMs(),
    'ms',
    'the same stream on the wire',
  );
} finally {
  await browser.close();
  await host.stop();
  await fake.close();
  t.cleanup();
}
