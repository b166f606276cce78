import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { safeExternalHref } from '../../lib/links';
import { CopyButton } from './CopyButton';
import { markdownBlocks } from '../../lib/markdown-blocks';

// Assistant text is model-authored: raw HTML is skipped, links go only to http/https/mailto and
// open outside the app, and images become links (the CSP loads no remote images anyway).

function Link({ href, children }: ComponentProps<'a'>) {
  const safe = safeExternalHref(href);
  if (!safe) return <span className="md-link-blocked">{children}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function Image({ src, alt }: ComponentProps<'img'>) {
  const safe = safeExternalHref(typeof src === 'string' ? src : undefined);
  const label = alt || 'image';
  return safe ? (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      [{label}]
    </a>
  ) : (
    <span>[{label}]</span>
  );
}

/** A code block with its own Copy button (the text as written, without highlighting marks). */
function Pre({ children, node }: ComponentProps<'pre'> & { node?: unknown }) {
  return (
    <div className="md-code">
      <pre>{children}</pre>
      <CopyButton text={codeText(node)} label="Copy code" />
    </div>
  );
}

/** The plain text of a hast node (rehype-highlight splits code into spans). */
function codeText(node: unknown): string {
  const n = node as { type?: string; value?: string; children?: unknown[] } | undefined;
  if (!n) return '';
  if (n.type === 'text') return n.value ?? '';
  return (n.children ?? []).map(codeText).join('');
}

const components: Components = { a: Link, img: Image, pre: Pre };
const remarkPlugins = [remarkGfm];
// `detect: false`: only fenced blocks that name a language are highlighted (guessing costs time
// on every streamed delta and guesses wrong on short snippets).
const rehypePlugins: ComponentProps<typeof ReactMarkdown>['rehypePlugins'] = [
  [rehypeHighlight, { detect: false }],
];

const MarkdownBody = memo(function MarkdownBody({ text }: { text: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
      components={components}
      skipHtml
    >
      {text}
    </ReactMarkdown>
  );
});

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <MarkdownBody text={text} />
    </div>
  );
});

/**
 * Markdown that is still arriving: parsed block by block, so each new delta re-parses only the
 * last block (the finished ones keep their rendering: same text, memoized).
 */
export const StreamingMarkdown = memo(function StreamingMarkdown({ text }: { text: string }) {
  return (
    <div className="md">
      {markdownBlocks(text).map((block, i) => (
        <MarkdownBody key={i} text={block} />
      ))}
    </div>
  );
});
