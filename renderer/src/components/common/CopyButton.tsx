import { useState } from 'react';

/** Copies `text` to the clipboard and says so for a moment (in words a screen reader hears). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('copied');
    } catch {
      setDone('failed');
    }
    setTimeout(() => setDone(null), 1500);
  };
  return (
    <button
      type="button"
      className="copy-button small"
      aria-label={label}
      onClick={() => void copy()}
    >
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
