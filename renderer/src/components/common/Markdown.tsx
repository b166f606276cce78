import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { safeExternalHref } from '../../lib/links';

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

const components: Components = { a: Link, img: Image };
const remarkPlugins = [remarkGfm];
// `detect: false`: only fenced blocks that name a language are highlighted (guessing costs time
// on every streamed delta and guesses wrong on short snippets).
const rehypePlugins: ComponentProps<typeof ReactMarkdown>['rehypePlugins'] = [
  [rehypeHighlight, { detect: false }],
];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        skipHtml
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
