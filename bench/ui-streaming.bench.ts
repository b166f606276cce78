import { launchChromium, requireBuild, serve } from './ui-host';
import { FakeAnthropic } from '../test/helpers/fake-anthropic';
import { tempDir } from '../test/helpers/temp';
import { report } from './report';

// A 60 KB markdown answer streamed into the real UI (built renderer, `mewbo serve`, Debian
// Chromium), issue 17.5: the time from Send until the whole answer is drawn as a finished message,
// over the time the model's server took to send it (first request byte to last response byte).
// The reference is the same stream on the wire: a UI that keeps up finishes just after it.

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

const t = tempDir('mewbo-bench-stream-');
const fake = await FakeAnthropic.start();
fake.script.push({ text: answer(), pace: { chars: DELTA_CHARS, everyMs: DELTA_EVERY_MS } });
const host = await serve(t.dir, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url });
const browser = await launchChromium();
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
    fake.wireMs[0]!,
    'ms',
    'the same stream on the wire',
  );
} finally {
  await browser.close();
  await host.stop();
  await fake.close();
  t.cleanup();
}
